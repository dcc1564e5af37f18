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
    # xor every row together to get the nim-sum
    xor_all = 0
    for r in range(len(board)):
        xor_all = xor_all ^ board[r]

    # a non-zero nim-sum means we can win
    if xor_all != 0:
        for r in range(len(board)):
            # the size row r has to end up with
            left = xor_all ^ board[r]
            # it must be smaller than the row, we can't add elements
            if left < board[r]:
                amount = board[r] - left
                return (r + 1, amount)

    # losing position: gather the rows that still have something in them
    usable = []
    for r in range(len(board)):
        if board[r] > 0:
            usable.append(r)
    # pick one of them and take a random amount
    r = random.choice(usable)
    amount = random.randint(1, board[r])
    return (r + 1, amount)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
