# -*- coding: utf-8 -*-
"""Exercise 7, optimal_move: the computer's perfect move.

Read the statement with `nimlab show optimal_move`, then check your work with
`nimlab check optimal_move.py`.
"""
from __future__ import print_function, division

import random


def optimal_move(board):
    """Return a move (row, elements), row counted from 1, for a non-empty board.

    When the nim-sum is not 0, the move must leave nim-sum 0. Otherwise any legal move will do.
    """
    # start the nim sum at zero
    nim_sum = 0
    # go through every row of the board
    for i in range(len(board)):
        # xor the row into the nim sum
        nim_sum = nim_sum ^ board[i]

    # check if the nim sum is zero or not
    if nim_sum == 0:
        # no winning move, so we pick a random row
        row = random.randint(0, len(board) - 1)
        # the row can not be empty so keep picking until it is not empty
        while board[row] == 0:
            row = random.randint(0, len(board) - 1)
        # pick a random number of elements to take from the row
        elements = random.randint(1, board[row])
        # add 1 to the row because rows are counted from 1
        return (row + 1, elements)
    else:
        # there is a winning move, we have to find it
        for i in range(len(board)):
            # the size the row should have after the move
            new_size = nim_sum ^ board[i]
            # the row has to be bigger than the new size
            if new_size < board[i]:
                # the number of elements to take away
                elements = board[i] - new_size
                # return the move (row counted from 1)
                return (i + 1, elements)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
