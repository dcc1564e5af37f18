# -*- coding: utf-8 -*-
"""Exercise 7, optimal_move: the computer's perfect move.

Read the statement with `nimlab show optimal_move`, then check your work with
`nimlab check optimal_move.py`.
"""
from __future__ import print_function, division

import random


def optimal_move(board):
    # suma nim del tablero
    nim = 0
    for fila in board:
        nim ^= fila

    if nim != 0:
        # buscar una fila mayor que nim ^ fila
        for i, fila in enumerate(board):
            objetivo = nim ^ fila
            if objetivo < fila:
                return (i + 1, fila - objetivo)

    # no hay jugada ganadora
    filas = [i for i, fila in enumerate(board) if fila > 0]
    elegida = random.choice(filas)
    return (elegida + 1, random.randint(1, board[elegida]))


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
