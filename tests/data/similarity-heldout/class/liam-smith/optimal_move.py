# -*- coding: utf-8 -*-
"""Exercise 7, optimal_move: the computer's perfect move.

Read the statement with `nimlab show optimal_move`, then check your work with
`nimlab check optimal_move.py`.
"""
from __future__ import print_function, division

import random


def soma_nim(board):
    x = 0
    for n in board:
        x = x ^ n
    return x



def optimal_move(board):
    # Your code here.
    nim = soma_nim(board)
    if nim > 0:
        for i in range(len(board)):
            target = board[i] ^ nim
            if target < board[i]:
                return (i + 1, board[i] - target)
    while True:
        i = random.randint(0, len(board) - 1)
        if board[i] > 0:
            return (i + 1, random.randint(1, board[i]))


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
