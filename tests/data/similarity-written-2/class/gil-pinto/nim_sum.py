# -*- coding: utf-8 -*-
"""Exercise 6, nim_sum: the nim-sum of a board, and who is winning.

Read the statement with `nimlab show nim_sum`, then check your work with
`nimlab check nim_sum.py`.
"""
from __future__ import print_function, division


def nim_sum(board):
    # caso base: o tabuleiro vazio tem nim-sum 0
    if not board:
        return 0
    # o XOR e associativo, por isso o nim-sum e a primeira linha
    # XOR o nim-sum do resto do tabuleiro (recursao)
    return board[0]^nim_sum(board[1:])


def is_n_position(board):
    # nim-sum 0 -> quem joga nao tem jogada boa
    return nim_sum(board)==0


def is_p_position(board):
    # e exatamente o contrario da posicao N
    return not is_n_position(board)


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
