# -*- coding: utf-8 -*-
"""Exercise 2, make_move: play one move on a Nim board.

Read the statement with `nimlab show make_move`, then check your work with
`nimlab check make_move.py`.
"""
from __future__ import print_function, division


def make_move(board, row, elements):
    # Make a copy of the board so we do not change the original list
    new_board = list(board)

    # Rows start at 1, so the row has to be between 1 and the number of rows
    if row < 1 or row > len(board):
        # There is no such row, so the move is not allowed
        return new_board, False

    # We have to take at least one element
    if elements < 1:
        return new_board, False

    # We cannot take more elements than there are in the row
    if elements > board[row - 1]:
        return new_board, False

    # The move is legal: take the elements from the row (row 1 is index 0)
    new_board[row - 1] = new_board[row - 1] - elements

    # Return the new board and True because the move was legal
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
