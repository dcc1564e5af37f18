# -*- coding: utf-8 -*-
from __future__ import print_function, division

import random


def optimal_move(board):
    nim_sum = 0
    for row in board:
        nim_sum = nim_sum ^ row

    if nim_sum != 0:
        for i in range(len(board)):
            new_size = nim_sum ^ board[i]
            if new_size < board[i]:
                return (i + 1, new_size)

    rows = []
    for i in range(len(board)):
        if board[i] > 0:
            rows.append(i)
    row = random.choice(rows)
    return (row + 1, random.randint(1, board[row]))


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
