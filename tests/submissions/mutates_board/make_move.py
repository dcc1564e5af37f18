# -*- coding: utf-8 -*-
from __future__ import print_function, division


def make_move(board, row, elements):
    if 1 <= row <= len(board) and 1 <= elements <= board[row - 1]:
        board[row - 1] -= elements
        return board, True
    return board, False


if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    board = case["board"]
    board_before = list(board)
    result = make_move(board, case["row"], case["elements"])
    assert board == board_before, "make_move changed the board it was given: change a copy instead"
    print(json.dumps(result))
