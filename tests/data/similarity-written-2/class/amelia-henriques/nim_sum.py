# -*- coding: utf-8 -*-
"""Exercise 6, nim_sum: the nim-sum of a board, and who is winning.

Read the statement with `nimlab show nim_sum`, then check your work with
`nimlab check nim_sum.py`.
"""
from __future__ import print_function, division


def nim_sum(board):
    """Return the XOR of all row sizes of board (0 for an empty board)."""
    # comecamos com 0, porque x ^ 0 == x (e assim o tabuleiro vazio da 0)
    resultado = 0
    # percorremos cada linha do tabuleiro
    for linha in board:
        # fazemos o XOR do resultado acumulado com o tamanho da linha
        resultado = resultado ^ linha
    # no fim o resultado e o nim-sum de todas as linhas
    return resultado


def is_n_position(board):
    """Return True when the nim-sum of board is 0."""
    # calculamos o nim-sum do tabuleiro
    soma = nim_sum(board)
    # se for 0 nao existe nenhuma jogada boa (posicao N)
    return soma == 0


def is_p_position(board):
    """Return True when the nim-sum of board is not 0."""
    # calculamos o nim-sum do tabuleiro
    soma = nim_sum(board)
    # se for diferente de 0 existe uma jogada vencedora (posicao P)
    return soma != 0


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
