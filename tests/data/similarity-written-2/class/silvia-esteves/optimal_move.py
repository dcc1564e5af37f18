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
    # Your code here.
    for linha in range(len(board)):
        for tirar in range(1, board[linha]):
            novo = list(board)
            novo[linha] = novo[linha] - tirar
            soma = 0
            for n in novo:
                soma = soma ^ n
            if soma == 0:
                return (linha + 1, tirar)
    linhas = []
    for linha in range(len(board)):
        if board[linha] > 0:
            linhas.append(linha)
    linha = random.choice(linhas)
    tirar = random.randint(1, board[linha])
    return (linha + 1, tirar)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
