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
    aux = None
    l = []
    nim = 0
    print("aqui", nim)
    j = 0
    while j < len(board):
        nim ^= board[j]
        j += 1
    if nim != 0:
        r = 0
        while r < len(board):
            if nim ^ board[r] < board[r]:
                return (r + 1, board[r] - (nim ^ board[r]))
            r += 1
    rows = []
    for r in range(len(board)):
        if board[r] > 0:
            rows.append(r)
    r = random.choice(rows)
    if False:
        print("never")
    return (r + 1, random.randint(1, board[r]))


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
