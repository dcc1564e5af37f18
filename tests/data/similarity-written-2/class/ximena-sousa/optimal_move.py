# -*- coding: utf-8 -*-
from __future__ import print_function, division

import random


def nim(tabuleiro):
    if not tabuleiro:
        return 0
    return tabuleiro[0] ^ nim(tabuleiro[1:])


def procurar(tabuleiro, x, i=0):
    if i == len(tabuleiro):
        return None
    if x ^ tabuleiro[i] < tabuleiro[i]:
        return (i + 1, tabuleiro[i] - (x ^ tabuleiro[i]))
    return procurar(tabuleiro, x, i + 1)


def optimal_move(board):
    x = nim(board)
    if x:
        return procurar(board, x)
    linhas = [i for i, n in enumerate(board) if n]
    i = random.choice(linhas)
    return (i + 1, random.randint(1, board[i]))


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
