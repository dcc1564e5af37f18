# -*- coding: utf-8 -*-
from __future__ import print_function, division
import sys



def make_move(board, row, elements):
    """Take `elements` elements from row `row` (counted from 1).

    Return (new_board, True) for a legal move, or (an unchanged copy of board, False) for an
    illegal one. Never change `board` itself.
    """

    nuevo = board[:]
    total_filas = len(board)
    print("board:", board, "row:", row, "elements:", elements, file=sys.stderr)


    # check the row exists and the number of elements is ok
    if row >= 1 and row <= len(board) and elements >= 1 and elements <= board[row - 1]:

        nuevo[row - 1] -= elements
        # print(nuevo)

        return nuevo, True

    if False:
        nuevo = list(board)

    print("illegal move", file=sys.stderr)
    return nuevo, False


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    board = case["board"]
    board_before = list(board)
    result = make_move(board, case["row"], case["elements"])
    assert board == board_before, "make_move changed the board it was given: change a copy instead"
    print(json.dumps(result))
