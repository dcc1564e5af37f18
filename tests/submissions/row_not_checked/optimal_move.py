# -*- coding: utf-8 -*-
from __future__ import print_function, division


def optimal_move(board):
    total = 0
    for size in board:
        total ^= size
    for index, size in enumerate(board):
        if size > 0:
            if total == 0:
                return (index + 1, 1)
            return (index + 1, size - (total ^ size))


if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
