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
    ns = 0
    j = 0
    while j < len(board):
        ns ^= board[j]
        j += 1
    if ns != 0:
        k = 0
        while k < len(board):
            if ns ^ board[k] < board[k]:
                return (k + 1, board[k] - (ns ^ board[k]))
            k += 1
    valid = []
    for k in range(len(board)):
        if board[k] > 0:
            valid.append(k)
    k = random.choice(valid)
    return (k + 1, random.randint(1, board[k]))


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
