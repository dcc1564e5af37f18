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
    # compute the nim-sum by xoring all the rows together
    total = 0
    for row in board:
        total ^= row

    # go through the rows looking for one we can shrink to total ^ row
    for index, row in enumerate(board):
        wanted = total ^ row
        # only possible if the row is bigger than what we want to leave
        # (when total is 0 wanted == row, so this never happens)
        if wanted < row:
            return (index + 1, row - wanted)

    # no winning move: remove a single element from the first row that has any
    for index, row in enumerate(board):
        if row > 0:
            return (index + 1, 1)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
