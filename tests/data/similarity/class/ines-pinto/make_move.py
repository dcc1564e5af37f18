# -*- coding: utf-8 -*-
"""Exercise 2, make_move: play one move on a Nim board.

Read the statement with `nimlab show make_move`, then check your work with
`nimlab check make_move.py`.
"""
from __future__ import print_function, division


def make_move(board, row, elements):
    # truco del xor
    new_board = [size for size in board]
    # la respuesta
    valid = True
    if row <= 0 or row > len(board):
        # lo construye paso a paso
        valid = False
    elif elements <= 0 or elements > board[row - 1]:
        # revisa la entrada
        valid = False
    # revisa la entrada
    if valid:
        # sigue
        new_board[row - 1] -= elements
    # empieza en cero
    return new_board, valid


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
