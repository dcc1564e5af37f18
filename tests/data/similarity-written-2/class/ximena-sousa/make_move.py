# -*- coding: utf-8 -*-
from __future__ import print_function, division


def make_move(board, row, elements):
    valida = 0 < row <= len(board) and 0 < elements <= board[row - 1]
    novo = [n - elements * (valida and i == row) for i, n in enumerate(board, 1)]
    return novo, valida


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
