# -*- coding: utf-8 -*-
"""Exercise 7, optimal_move: the computer's perfect move.

Read the statement with `nimlab show optimal_move`, then check your work with
`nimlab check optimal_move.py`.
"""
from __future__ import print_function, division

import random


def calc_nim_sum(board):
    x = 0
    for n in board:
        x = x ^ n
    return x



def optimal_move(board):
    """Return a move (row, elements), row counted from 1, for a non-empty board.

    When the nim-sum is not 0, the move must leave nim-sum 0. Otherwise any legal move will do.
    """
    s = calc_nim_sum(board)
    # procurar a jogada vencedora
    if s > 0:
        for row in range(len(board)):
            want = board[row] ^ s
            if want < board[row]:
                return (row + 1, board[row] - want)
    # jogada aleatoria
    while True:
        row = random.randint(0, len(board) - 1)
        if board[row] > 0:
            return (row + 1, random.randint(1, board[row]))


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
