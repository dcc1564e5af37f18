from __future__ import division, print_function

import random


def optimal_move(board):
    total = 0
    for row in board:
        total = total ^ row
    good = [i for i in range(len(board)) if total ^ board[i] < board[i]]
    if good:
        i = random.choice(good)
        return i + 1, board[i] - (total ^ board[i])
    i = random.choice([i for i in range(len(board)) if board[i] > 0])
    return i + 1, random.randint(1, board[i])
