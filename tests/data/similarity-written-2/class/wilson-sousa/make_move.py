# -*- coding: utf-8 -*-
"""Exercise 2, make_move: play one move on a Nim board.

Read the statement with `nimlab show make_move`, then check your work with
`nimlab check make_move.py`.
"""

from __future__ import print_function, division



def make_move(board, row, elements):

    # work on a copy, never on the board we were given
    novo = list(board)

    tamanho = len(board)


    # row numbers go from 1 to len(board)
    if row < 1:
        return novo, False

    if row > tamanho:
        return novo, False


    # take at least one, and not more than the row has
    if elements < 1:
        return novo, False

    if elements > board[row-1]:
        return novo, False


    novo[row-1] = novo[row-1] - elements

    return novo, True


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
