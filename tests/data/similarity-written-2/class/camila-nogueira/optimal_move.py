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
    soma = 0
    for n in board:
        soma ^= n
    if soma:
        for i, n in enumerate(board):
            if soma ^ n < n:
                return (i + 1, n - (soma ^ n))
    linhas = [i for i, n in enumerate(board) if n > 0]
    i = random.choice(linhas)
    return (i + 1, random.randint(1, board[i]))


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
