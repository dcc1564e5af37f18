# -*- coding: utf-8 -*-
"""Exercise 7, optimal_move: the computer's perfect move.

Read the statement with `nimlab show optimal_move`, then check your work with
`nimlab check optimal_move.py`.
"""
from __future__ import print_function, division

import random


def optimal_move(board):

    # The board should never be empty here, but check anyway so a bad
    # call fails loudly instead of returning nonsense.
    if not board or sum(board) == 0:
        raise ValueError("optimal_move called on an empty board")

    # Rows can't have a negative number of elements.
    for size in board:
        if size < 0:
            raise ValueError("negative row size: %r" % (size,))


    # Nim-sum: XOR of every row size.
    nim_sum = 0
    for size in board:
        nim_sum ^= size


    # A non-zero nim-sum means there is a winning move. For each row,
    # nim_sum ^ size is the size that row would need; we can only take
    # elements away, so the row has to be bigger than that.
    if nim_sum != 0:
        for index, size in enumerate(board):
            target = nim_sum ^ size
            if target < size:
                return (index + 1, size - target)


    # Zero nim-sum: no winning move exists. Pick a random non-empty row
    # and take a random (legal) number of elements from it.
    candidates = [index for index, size in enumerate(board) if size > 0]
    index = random.choice(candidates)

    return (index + 1, random.randint(1, board[index]))


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
