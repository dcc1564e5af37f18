# -*- coding: utf-8 -*-
from __future__ import print_function, division

import random


def optimal_move(board):
    nimsum = 0
    for linha in board:
        nimsum ^= linha

    if nimsum != 0:
        for indice, linha in enumerate(board):
            novo = nimsum ^ linha
            if novo < linha:
                return (indice + 1, linha - novo)

    possiveis = []
    for indice, linha in enumerate(board):
        if linha > 0:
            possiveis.append(indice)
    indice = random.choice(possiveis)
    return (indice + 1, random.randint(1, board[indice]))


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
