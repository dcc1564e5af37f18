# -*- coding: utf-8 -*-
from __future__ import print_function, division

import random


def optimal_move(board):
    soma = 0
    i = 0
    while i < len(board):
        soma = soma ^ board[i]
        i = i + 1

    if soma != 0:
        i = 0
        while i < len(board) - 1:
            tamanho = soma ^ board[i]
            if tamanho < board[i]:
                tirar = board[i] - tamanho
                return (i + 1, tirar)
            i = i + 1

    linha = random.randint(1, len(board))
    tirar = random.randint(1, board[linha - 1])
    return (linha, tirar)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
