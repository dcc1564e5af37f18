# -*- coding: utf-8 -*-
from __future__ import print_function, division

import random


def optimal_move(board):
    suma = 0
    for fila in board:
        suma ^= fila
    ganadoras = [(i + 1, fila - (suma ^ fila))
                 for i, fila in enumerate(board) if suma ^ fila < fila]
    if ganadoras:
        return ganadoras[0]
    no_vacias = [i for i, fila in enumerate(board) if fila > 0]
    i = random.choice(no_vacias)
    return (i + 1, random.randint(1, board[i]))


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
