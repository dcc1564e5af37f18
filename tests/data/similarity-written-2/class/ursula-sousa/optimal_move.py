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
    nimsum = 0
    for i in range(len(board)):
        nimsum = nimsum ^ board[i]

    if nimsum != 0:
        for i in range(len(board)):
            size = nimsum ^ board[i]
            if size < board[i]:
                take = board[i] - size
                return (i + 1, take)

    rows = []
    for i in range(len(board)):
        if board[i] > 0:
            rows.append(i)
    i = random.choice(rows)
    take = random.randint(1, board[i])
    return (i + 1, take)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
