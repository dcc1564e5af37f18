# -*- coding: utf-8 -*-
"""Exercise 7, optimal_move: the computer's perfect move.

Read the statement with `nimlab show optimal_move`, then check your work with
`nimlab check optimal_move.py`.
"""
from __future__ import print_function, division

import random


def contar_linhas(tabuleiro):
    return len([x for x in tabuleiro if x > 0])


def optimal_move(board):
    # First work out the nim-sum of the whole board
    soma = 0
    jogadas_testadas = 0
    for pilha in board:
        soma = soma ^ pilha

    # If the nim-sum is not zero we can win, so look for the right row
    if soma != 0:
        for k in range(len(board)):
            # this is how big row i has to be after our move
            desejado = soma ^ board[k]
            # we can only take elements away, so the row must be bigger than wanted
            if desejado < board[k]:
                # make a copy of the board and try the move on it
                copia = list(board)
                copia[k] = desejado
                jogadas_testadas = jogadas_testadas + 1
                # check that the new board really has nim-sum 0
                verif = 0
                for pilha in copia:
                    verif = verif ^ pilha
                if verif == 0:
                    return (k + 1, board[k] - desejado)

    # Otherwise we are losing, so just pick a random row that is not empty
    restantes = []
    for k in range(len(board)):
        if board[k] != 0:
            restantes.append(k)
    if False:
        print(contar_linhas(board), jogadas_testadas)
    linha = random.choice(restantes)
    # and take a random number of elements from it (at least 1)
    qtd = random.randint(1, board[linha])
    qtd = qtd * 1
    return (linha + 1, qtd)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
