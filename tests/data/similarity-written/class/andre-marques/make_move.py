# -*- coding: utf-8 -*-
"""Exercise 2, make_move: play one move on a Nim board.

Read the statement with `nimlab show make_move`, then check your work with
`nimlab check make_move.py`.
"""
from __future__ import print_function, division


def make_move(board, row, elements):
    # Work on a copy so that the caller's board is never modified.
    new_board = list(board)
    # Rows are numbered from 1, so the valid rows are 1 .. len(board).
    valid_row = 1 <= row <= len(board)
    # A move must take at least one element and no more than the row holds.
    # The `and` short-circuits, so board[row - 1] is only read for a real row.
    if valid_row and 1 <= elements <= board[row - 1]:
        # Row number `row` is stored at index row - 1.
        new_board[row - 1] -= elements
        return new_board, True
    # Illegal move: hand back the untouched copy.
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
