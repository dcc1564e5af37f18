# -*- coding: utf-8 -*-
from __future__ import print_function, division

import random


def optimal_move(board):
    """Return a move (row, elements), row counted from 1, for a non-empty board.

    When the nim-sum is not 0, the move must leave nim-sum 0. Otherwise any legal move will do.
    """
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
    print(optimal_move(case["board"]))
