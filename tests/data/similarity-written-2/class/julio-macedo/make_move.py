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
    # Copiar o tabuleiro elemento a elemento, para não alterar a lista original
    novo_tabuleiro = []
    for linha in board:
        novo_tabuleiro.append(linha)

    # Índice da linha na lista (a linha 1 está na posição 0)
    indice = row - 1

    # A jogada é válida se a linha existir e se tirarmos entre 1 e o número
    # de elementos que a linha tem
    if indice >= 0 and indice < len(board) and elements >= 1 and elements <= board[indice]:
        # Tirar os elementos da linha escolhida
        novo_tabuleiro[indice] = novo_tabuleiro[indice] - elements
        # Jogada válida
        return novo_tabuleiro, True

    # Jogada inválida: devolver a cópia sem alterações
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
