# -*- coding: utf-8 -*-
"""Exercise 6, nim_sum: the nim-sum of a board, and who is winning.

Read the statement with `nimlab show nim_sum`, then check your work with
`nimlab check nim_sum.py`.
"""
from __future__ import print_function, division


def nim_sum(board):
    # Calculo feito coluna a coluna, como na aula: o bit k do nim-sum vale 1
    # quando ha um numero impar de linhas com o bit k a 1.
    if not board:
        # tabuleiro vazio: nim-sum 0
        return 0
    maior = max(board)
    resultado = 0
    bit = 0
    # percorremos os bits ate ao mais significativo da maior linha
    while (1 << bit) <= maior:
        # contamos quantas linhas tem este bit ligado
        contagem = 0
        for linha in board:
            if (linha >> bit) & 1:
                contagem += 1
        # paridade impar -> o bit fica a 1 no resultado
        if contagem % 2 == 1:
            resultado |= 1 << bit
        bit += 1
    return resultado


def is_n_position(board):
    # posicao N: nim-sum igual a 0
    return nim_sum(board) == 0


def is_p_position(board):
    # posicao P: nim-sum diferente de 0
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
