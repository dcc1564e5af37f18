# -*- coding: utf-8 -*-
from __future__ import print_function, division

import random


def misere_move(board):
    big_rows = [index for index, size in enumerate(board) if size > 1]
    ones = len([size for size in board if size == 1])
    if len(big_rows) == 1:
        index = big_rows[0]
        if ones % 2 == 1:
            keep = 1
        else:
            keep = 0
        return (index + 1, board[index] - keep)
    if len(big_rows) > 1:
        total = 0
        for size in board:
            total ^= size
        if total != 0:
            for index, size in enumerate(board):
                if total ^ size < size:
                    return (index + 1, size - (total ^ size))
    rows = [index for index, size in enumerate(board) if size > 0]
    index = random.choice(rows)
    return (index + 1, random.randint(1, board[index]))


if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(misere_move(case["board"])))
