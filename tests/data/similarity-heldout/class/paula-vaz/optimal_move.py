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
    nim = 0
    for size in board:
        nim ^= size
    # buscar la jugada ganadora
    if nim != 0:
        for k in range(len(board)):
            for take in range(1, board[k] + 1):
                after = 0
                for j in range(len(board)):
                    if j == k:
                        after ^= board[j] - take
                    else:
                        after ^= board[j]
                if after == 0:
                    return (k + 1, take)
    # jugada al azar
    for k in range(len(board)):
        if board[k] > 0:
            return (k + 1, 1)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
