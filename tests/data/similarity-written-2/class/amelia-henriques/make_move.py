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
    tabuleiro_novo = []
    k = 0
    while k < len(board):
        tabuleiro_novo.append(board[k])
        k += 1

    # Índice da linha na lista (a linha 1 está na posição 0)
    idx = row - 1

    # A jogada é válida se a linha existir e se tirarmos entre 1 e o número
    # de elementos que a linha tem
    if idx >= 0 and idx < len(board) and elements >= 1 and elements <= board[idx]:
        # Tirar os elementos da linha escolhida
        tabuleiro_novo[idx] = tabuleiro_novo[idx] - elements
        # Jogada válida
        return tabuleiro_novo, True

    # Jogada inválida: devolver a cópia sem alterações
    return tabuleiro_novo, False


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
