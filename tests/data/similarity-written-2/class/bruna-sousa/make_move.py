# -*- coding: utf-8 -*-
"""Exercise 2, make_move: play one move on a Nim board.

Read the statement with `nimlab show make_move`, then check your work with
`nimlab check make_move.py`.
"""
from __future__ import print_function, division


def make_move(board, row, elements):
    """Take `elements` elements from row `row` (counted from 1).

    Return (new_board, True) for a legal move, or (an unchanged copy of board, False) for an
    illegal one. Never change `board` itself.
    """
    new_board = list(board)
    if row >= 1 and row <= len(board) and elements >= 1 and board[row - 1] >= elements:
        new_board[row - 1] = new_board[row - 1] - elements
        return new_board, True
    return new_board, False


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
