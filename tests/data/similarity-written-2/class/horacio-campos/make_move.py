# -*- coding: utf-8 -*-
"""Exercise 2, make_move: play one move on a Nim board.

Read the statement with `nimlab show make_move`, then check your work with
`nimlab check make_move.py`.
"""
from __future__ import print_function, division


def make_move(board, row, elements):
    # Número de linhas do tabuleiro
    n_linhas = len(board)
    # A jogada é válida se a linha existe (de 1 a n_linhas) e se tiramos
    # entre 1 e o número de elementos que a linha tem
    valida = 1 <= row <= n_linhas and 1 <= elements <= board[row - 1]
    if not valida:
        # Jogada inválida: devolvemos uma cópia sem alterações
        return list(board), False
    # Jogada válida: construímos um tabuleiro novo, tirando os elementos
    # apenas à linha escolhida (índice row - 1)
    novo = [n - elements if i == row - 1 else n for i, n in enumerate(board)]
    return novo, True


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
