# -*- coding: utf-8 -*-
"""Exercise 6, nim_sum: the nim-sum of a board, and who is winning.

Read the statement with `nimlab show nim_sum`, then check your work with
`nimlab check nim_sum.py`.
"""
from __future__ import print_function, division
import math


def nim_sum(board):
    # comecar com zero
    resultado = 0
    contador = 0
    for linha in board:
        if linha == 0:
            pass  # linha vazia nao muda nada
        else:
            resultado = resultado ^ linha
        contador = contador + 1
    # print(contador)
    return resultado


def is_n_position(board):
    soma = nim_sum(board)
    e_n = (soma == 0)
    if e_n == True:
        return True
    else:
        return False


def is_p_position(board):
    # se a soma nao for zero a posicao e P
    soma = nim_sum(board)
    if soma == 0:
        return False
    elif soma != 0:
        return True


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
