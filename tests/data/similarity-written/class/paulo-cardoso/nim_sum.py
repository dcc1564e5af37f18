# -*- coding: utf-8 -*-
"""Exercise 6, nim_sum: the nim-sum of a board, and who is winning.

Read the statement with `nimlab show nim_sum`, then check your work with
`nimlab check nim_sum.py`.
"""
from __future__ import print_function, division


def nim_sum(board):

    if not board:
        return 0

    largura = len(bin(max(board))) - 2
    binarios = []
    for linha in board:
        binarios.append(format(linha, 'b').zfill(largura))

    resultado = ''

    for coluna in range(largura):
        uns = 0
        for b in binarios:
            if b[coluna] == '1':
                uns += 1
        resultado += str(uns % 2)


    return int(resultado, 2)



def is_n_position(board):

    return nim_sum(board) == 0


def is_p_position(board):
    return nim_sum(board) != 0


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
