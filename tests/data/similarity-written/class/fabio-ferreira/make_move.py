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
    # Copy the board first: the caller's list must stay untouched.
    new_board = board[:]
    # Rows are numbered from 1 but list indices start at 0.
    index = row - 1
    # The move is legal only if the row exists and we take between 1 and all of its elements.
    # Checking the index first means board[index] is never read for a row that doesn't exist
    # (a negative index would silently read from the end of the list).
    if 0 <= index < len(board) and 1 <= elements <= board[index]:
        # Take the elements from the copy, not from the original.
        new_board[index] -= elements
        return new_board, True
    # Illegal move: hand back the copy, unchanged.
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
