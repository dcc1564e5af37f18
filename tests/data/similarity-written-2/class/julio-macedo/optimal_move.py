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
    # xor de todas as linhas do tabuleiro
    s_nim = 0
    for linha in board:
        s_nim = s_nim ^ linha
    # soma diferente de zero: ha uma jogada que ganha
    if s_nim != 0:
        # procurar a linha que pode ficar com s_nim ^ linha elementos
        for pos, linha in enumerate(board):
            fica = linha ^ s_nim
            # so da se ficar com menos do que tem agora
            if linha > fica:
                return (pos + 1, linha - fica)
    # escolher uma linha ao calhas ate encontrar uma com elementos
    pos = random.randint(0, len(board) - 1)
    while not board[pos]:
        pos = random.randint(0, len(board) - 1)
    # tirar entre 1 e todos os elementos dessa linha
    return (pos + 1, random.randint(1, board[pos]))


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
