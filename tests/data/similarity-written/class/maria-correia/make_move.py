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

    # numero de linhas do tabuleiro
    numero_linhas = len(board)

    # copia do tabuleiro
    novo_tabuleiro = []
    i = 0
    while i < numero_linhas:
        novo_tabuleiro.append(board[i])
        i = i + 1


    # ver se a linha existe
    linha_valida = False
    if row >= 1:
        if row <= numero_linhas:
            linha_valida = True


    if linha_valida == False:
        return novo_tabuleiro, False


    # ver se ha elementos suficientes
    indice = row - 1
    elementos_na_linha = board[indice]

    if elements >= 1 and elements <= elementos_na_linha:
        novo_tabuleiro[indice] = elementos_na_linha - elements
        return novo_tabuleiro, True
    else:
        return novo_tabuleiro, False



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
