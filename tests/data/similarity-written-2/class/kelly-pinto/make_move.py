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
    # Your code here.

    # Never touch the caller's list: work on a shallow copy (ints are immutable anyway)
    new_board = board[:]

    # Negative indices are valid in Python (board[-1] is the last row), so
    # they have to be rejected by hand before indexing.
    if row < 1 or elements < 1:
        return new_board, False


    try:
        # row r lives at index r - 1; an IndexError means there is no such row
        left = board[row - 1] - elements
    except IndexError:
        return new_board, False

    # Taking more than the row holds would leave a negative count.
    if left < 0:
        return new_board, False

    new_board[row - 1] = left

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
