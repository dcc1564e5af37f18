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
    # first we make a copy of the board so we dont change the original one
    new_board = list(board)

    # this variable says if the move is legal or not
    legal = True

    # the number of rows in the board
    number_of_rows = len(board)

    # check if the row is too small (rows start at 1)
    if row < 1:
        legal = False
    # check if the row is too big
    if row > number_of_rows:
        legal = False
    # check if we take at least one element
    if elements < 1:
        legal = False

    # if the row is ok we check if there are enough elements in it
    if legal == True:
        # the index of the row is row - 1 because lists start at 0
        index = row - 1
        if board[index] < elements:
            legal = False
        else:
            pass

    # now we make the move if it is legal
    if legal == True:
        new_board[index] = new_board[index] - elements
        return new_board, True
    else:
        # the move is not legal so we return the board without changes
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
