# -*- coding: utf-8 -*-
from __future__ import print_function, division


def make_move(board, row, elements):
    novo_tabuleiro = list(board)
    # a linha tem de existir
    if row < 1 or row > len(board):
        return novo_tabuleiro, False
    # nao se pode tirar 0 nem mais do que ha na linha
    if elements < 1 or elements > board[row - 1]:
        return novo_tabuleiro, False
    novo_tabuleiro[row - 1] -= elements
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
