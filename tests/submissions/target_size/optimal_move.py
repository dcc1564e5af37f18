# -*- coding: utf-8 -*-
from __future__ import print_function, division


def optimal_move(board):
    total = 0
    for size in board:
        total ^= size
    for index, size in enumerate(board):
        if total ^ size < size:
            return (index + 1, total ^ size)
    return (board.index(max(board)) + 1, 1)


if __name__ == "__main__":
    import json
    import sys

    print(json.dumps(optimal_move(json.loads(sys.stdin.read())["board"])))
