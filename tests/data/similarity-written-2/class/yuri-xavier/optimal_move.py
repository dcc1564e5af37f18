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
    nim_sum = 0
    for heap in board:
        nim_sum ^= heap

    if nim_sum:
        for row, heap in enumerate(board, 1):
            # heap must be able to shrink to nim_sum ^ heap
            if nim_sum ^ heap < heap:
                return row, heap - (nim_sum ^ heap)

    # losing: any legal move will do
    row = random.choice([r for r, heap in enumerate(board, 1) if heap])
    return row, random.randint(1, board[row - 1])


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
