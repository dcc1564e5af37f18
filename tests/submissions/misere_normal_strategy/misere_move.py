# -*- coding: utf-8 -*-
# A misere_move that plays the normal game's strategy all the way: leave nim-sum 0. At the end
# it leaves an even number of rows of one, and its player takes the last element.
from __future__ import print_function, division

import random


def misere_move(board):
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
