# -*- coding: utf-8 -*-
"""Exercise 2, make_move: play one move on a Nim board.

Read the statement with `nimlab show make_move`, then check your work with
`nimlab check make_move.py`.
"""
from __future__ import print_function, division


def make_move(board, row, elements):
    """Take `elements` elements from row `row` (counted from 1).

    Return (new_board, True) for a legal move, or (an unchanged copy of board, False) for an
    illegal one. Never change `board` itself.
    """
    # Your code here.
    # criar uma copia do tabuleiro para nao alterar o original
    novo_tabuleiro = []
    i = 0
    while i < len(board):
        novo_tabuleiro.append(board[i])
        i = i + 1

    # verificar se a linha existe (as linhas comecam em 1)
    if row < 1 or row > len(board):
        # a linha nao existe, a jogada nao e valida
        return novo_tabuleiro, False

    # verificar se o numero de elementos e valido
    if elements < 1:
        # tem de tirar pelo menos um elemento
        return novo_tabuleiro, False
    if elements > board[row - 1]:
        # nao pode tirar mais elementos do que os que estao na linha
        return novo_tabuleiro, False

    # tirar os elementos da linha
    novo_tabuleiro[row - 1] = novo_tabuleiro[row - 1] - elements

    # devolver o novo tabuleiro e True
    return novo_tabuleiro, True


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    board = case["board"]
    board_before = list(board)
    result = make_move(board, case["row"], case["elements"])
    assert board == board_before, "make_move changed the board it was given: change a copy instead"
    print(json.dumps(result))
