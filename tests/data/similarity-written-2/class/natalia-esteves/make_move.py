# -*- coding: utf-8 -*-
from __future__ import print_function, division



def make_move(board, row, elements):

    new_board = list(board)

    # check the row
    if row < 1 or row > len(board):
        return new_board, False

    # not enough elements in the row
    if board[row-1] < elements:
        return new_board, False


    new_board[row-1] = new_board[row-1] - elements

    return new_board, True


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
