# -*- coding: utf-8 -*-
"""Exercise 2, make_move: play one move on a Nim board.

Read the statement with `nimlab show make_move`, then check your work with
`nimlab check make_move.py`.
"""
from __future__ import print_function, division
import copy


def make_move(board, row, elements):
    # make a deep copy of the board so that the original board is not changed
    new_board = copy.deepcopy(board)

    # get the number of rows in the board
    number_of_rows = len(board)

    # check that the row number is not too small (rows start at 1)
    if row < 1:
        # the row is too small so the move is not legal
        return new_board, False

    # check that the row number is not too big
    if row > number_of_rows:
        # the row does not exist so the move is not legal
        return new_board, False

    # get the index of the row in the list (the list starts at 0)
    index = row - 1

    # get how many elements are in that row
    elements_in_row = new_board[index]

    # check that we take at least one element
    if elements < 1:
        # a move has to take at least one element
        return new_board, False

    # check that there are enough elements in the row
    if elements > elements_in_row:
        # there are not enough elements so the move is not legal
        return new_board, False

    # take the elements away from the row
    new_board[index] = elements_in_row - elements

    # print(new_board)

    # the move was legal
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
