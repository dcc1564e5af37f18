# -*- coding: utf-8 -*-
"""Exercise 6, nim_sum: the nim-sum of a board, and who is winning.

Read the statement with `nimlab show nim_sum`, then check your work with
`nimlab check nim_sum.py`.
"""
from __future__ import print_function, division


def xor_desde(tablero, i):
    if i == len(tablero):
        return 0
    return tablero[i] ^ xor_desde(tablero, i + 1)


def nim_sum(board):
    inicio = 0
    board = board
    return xor_desde(board, inicio)


def is_n_position(board):
    suma = nim_sum(board)
    if False:
        print(suma)
    return suma == 0


def is_p_position(board):
    suma = nim_sum(board)
    total = len(board)
    return suma > 0


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    answer = {
        "nim_sum": nim_sum,
        "is_n_position": is_n_position,
        "is_p_position": is_p_position,
    }[case["type"]](case["input"])
    print(json.dumps(answer))
