# -*- coding: utf-8 -*-
from __future__ import print_function, division

import random


def optimal_move(board):
    # soma nim
    soma = 0
    for elementos in board:
        soma = soma ^ elementos
    if soma != 0:
        for linha in range(len(board)):
            fica = soma ^ board[linha]
            if fica < board[linha]:
                return (linha + 1, board[linha] - fica)
    # nao ha jogada vencedora, jogada aleatoria
    linhas = [linha for linha in range(len(board)) if board[linha] > 0]
    linha = random.choice(linhas)
    return (linha + 1, random.randint(1, board[linha]))


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
