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
    # Start with a copy of the board, so the original list is not changed.
    new_board = list(board)

    # Rows are numbered from 1, so row 0 or a negative row does not exist.
    if row <= 0:
        return new_board, False

    # A row bigger than the number of rows does not exist either.
    if row > len(board):
        return new_board, False

    # Now we know the row exists, so we can look at how many elements it has.
    available = board[row - 1]

    # The player must take at least one element, and at most all of them.
    if elements <= 0 or elements > available:
        return new_board, False

    # Everything is fine: remove the elements from that row.
    new_board[row - 1] = available - elements

    # Return the new board and True to say the move was legal.
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
