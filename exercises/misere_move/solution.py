# -*- coding: utf-8 -*-
"""Model solution for exercise 10 (further study), misere_move."""
from __future__ import print_function, division

import random


def misere_move(board):
    """Return a move (row, elements), row counted from 1, for a non-empty board, under misere
    rules (whoever takes the last element loses).

    Play as optimal_move does, until the move would leave no row of two or more elements:
    then leave an odd number of rows holding exactly one element.
    """
    big_rows = [index for index, size in enumerate(board) if size > 1]
    ones = len([size for size in board if size == 1])
    if len(big_rows) == 1:
        # The end: bring the big row down to 0 or 1, leaving an odd number of rows of one.
        index = big_rows[0]
        if ones % 2 == 0:
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
    # Only rows of 0 and 1 (every move takes one element), or no move wins: any legal move.
    rows = [index for index, size in enumerate(board) if size > 0]
    index = random.choice(rows)
    return (index + 1, random.randint(1, board[index]))


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(misere_move(case["board"])))
