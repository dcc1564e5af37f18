# -*- coding: utf-8 -*-
from __future__ import print_function, division


def make_move(board, row, elements):
    new_board = list(board)
    if row <= len(board) and 1 <= elements <= board[row - 1]:
        new_board[row - 1] -= elements
        return new_board, True
    return new_board, False


if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(make_move(case["board"], case["row"], case["elements"])))
