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
    # Check that the row exists (rows are numbered from 1)
    if row < 1 or row > len(board):
        return list(board), False

    # Check that we take at least one element and not more than the row has
    if elements < 1 or elements > board[row - 1]:
        return list(board), False

    # Build the new board one row at a time
    new_board = []
    for index, count in enumerate(board):
        if index == row - 1:
            # This is the chosen row: remove the elements
            new_board.append(count - elements)
        else:
            # Any other row stays the same
            new_board.append(count)

    # The move was legal
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
