# -*- coding: utf-8 -*-
"""Exercise 7, optimal_move: the computer's perfect move.

Read the statement with `nimlab show optimal_move`, then check your work with
`nimlab check optimal_move.py`.
"""
from __future__ import print_function, division

import random


def optimal_move(board):
    x = 0
    for num in board:
        x ^= num
    # procurar a jogada vencedora
    if x != 0:
        for idx, size in enumerate(board):
            if x ^ size < size:
                return (idx + 1, size - (x ^ size))
    # jogada aleatoria
    non_empty = [i for i in range(len(board)) if board[i] > 0]
    idx = random.choice(non_empty)
    return (idx + 1, random.randint(1, board[idx]))


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
