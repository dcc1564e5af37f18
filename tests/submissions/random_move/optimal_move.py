# -*- coding: utf-8 -*-
from __future__ import print_function, division

import random


def optimal_move(board):
    rows = [index for index, size in enumerate(board) if size > 0]
    index = random.choice(rows)
    return (index + 1, random.randint(1, board[index]))


if __name__ == "__main__":
    import json
    import sys

    print(json.dumps(optimal_move(json.loads(sys.stdin.read())["board"])))
