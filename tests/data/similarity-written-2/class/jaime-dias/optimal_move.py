# -*- coding: utf-8 -*-
"""Exercise 7, optimal_move: the computer's perfect move.

Read the statement with `nimlab show optimal_move`, then check your work with
`nimlab check optimal_move.py`.
"""
from __future__ import print_function, division

import random


def optimal_move(board):
    """Return a move (row, elements), row counted from 1, for a non-empty board.

    When the nim-sum is not 0, the move must leave nim-sum 0. Otherwise any legal move will do.
    """
    # Your code here.
    # lista com todas as jogadas possiveis
    jogadas = []
    # percorrer todas as linhas
    for linha in range(len(board)):
        # percorrer todas as quantidades que se podem tirar desta linha
        for quantos in range(1, board[linha] + 1):
            jogadas.append((linha + 1, quantos))

    # experimentar cada jogada e ver se a soma nim fica 0
    for jogada in jogadas:
        # copiar o tabuleiro para nao estragar o original
        copia = list(board)
        # fazer a jogada na copia
        copia[jogada[0] - 1] = copia[jogada[0] - 1] - jogada[1]
        # calcular a soma nim da copia
        soma = 0
        for n in copia:
            soma = soma ^ n
        # se a soma nim for 0 encontramos a jogada vencedora
        if soma == 0:
            return jogada

    # se nenhuma jogada da soma 0 escolhemos uma jogada qualquer
    jogada = random.choice(jogadas)
    return jogada


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
