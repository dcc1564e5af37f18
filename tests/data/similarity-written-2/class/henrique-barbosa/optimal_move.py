# -*- coding: utf-8 -*-
"""Exercise 7, optimal_move: the computer's perfect move.

Read the statement with `nimlab show optimal_move`, then check your work with
`nimlab check optimal_move.py`.
"""
from __future__ import print_function, division

import random


def soma_nim(tabuleiro):
    """Devolve o xor de todas as linhas do tabuleiro (exercicio 6)."""
    resultado = 0
    for linha in tabuleiro:
        resultado ^= linha
    return resultado


def jogada_aleatoria(tabuleiro):
    """Devolve uma jogada legal qualquer, escolhida ao acaso."""
    # so as linhas com pelo menos um elemento podem ser escolhidas
    linhas = [i for i in range(len(tabuleiro)) if tabuleiro[i] > 0]
    i = random.choice(linhas)
    # randint inclui os dois extremos, por isso pode tirar a linha toda
    return (i + 1, random.randint(1, tabuleiro[i]))


def optimal_move(board):
    """Return a move (row, elements), row counted from 1, for a non-empty board.

    When the nim-sum is not 0, the move must leave nim-sum 0. Otherwise any legal move will do.
    """
    # Your code here.
    x = soma_nim(board)
    # com soma nim 0 nao ha jogada vencedora
    if x == 0:
        return jogada_aleatoria(board)
    # procurar uma linha que fique mais pequena depois do xor com a soma nim
    for i, linha in enumerate(board):
        objetivo = x ^ linha
        if objetivo < linha:
            # tirar o necessario para a linha ficar com 'objetivo' elementos
            return (i + 1, linha - objetivo)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
