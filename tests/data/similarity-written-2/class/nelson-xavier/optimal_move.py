# -*- coding: utf-8 -*-
"""Exercise 7, optimal_move: the computer's perfect move.

Read the statement with `nimlab show optimal_move`, then check your work with
`nimlab check optimal_move.py`.
"""
from __future__ import print_function, division
import sys
import random

def optimal_move(board):
    # calcular a soma nim do tabuleiro (xor de todas as linhas)
    soma_nim=0
    for linha in board:
        soma_nim=soma_nim^linha
    sys.stderr.write("soma_nim = %d\n" % soma_nim)
    # se a soma nim nao for 0 existe uma jogada vencedora
    if soma_nim!=0:
        for i in range(len(board)):
            # tamanho que a linha deve ficar para a soma nim passar a 0
            alvo=soma_nim^board[i]
            # sys.stderr.write("i=%d alvo=%d\n" % (i, alvo))
            # so podemos tirar elementos, por isso a linha tem de ser maior que o alvo
            if alvo<board[i]:
                sys.stderr.write("jogada: %d %d\n" % (i+1, board[i]-alvo))
                return (i+1, board[i]-alvo)
    # soma nim igual a 0: nao ha jogada vencedora,
    # tiramos 1 elemento da primeira linha que nao esteja vazia
    for i in range(len(board)):
        if board[i]>0:
            sys.stderr.write("sem jogada vencedora, linha %d\n" % (i+1))
            return (i+1, 1)

# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
