# -*- coding: utf-8 -*-
"""Exercise 7, optimal_move: the computer's perfect move.

Read the statement with `nimlab show optimal_move`, then check your work with
`nimlab check optimal_move.py`.
"""
from __future__ import print_function, division

import random


def optimal_move(board):
    """Return a move (row, elements), row counted from 1, for a non-empty board.

    When the nim-sum is not 0, the move must leave nim-sum 0. Otherwise any legal move will do.
    """
    # Your code here.
    # Step 1: the nim-sum is the XOR of all the row sizes
    nim_sum = 0
    for row_size in board:
        nim_sum ^= row_size

    # Step 2: if the nim-sum is not 0 there is a winning move
    if nim_sum != 0:
        for row in range(len(board)):
            # the size this row needs so that the nim-sum becomes 0
            target_size = nim_sum ^ board[row]
            # we can only take elements, so the row must be larger than that
            if target_size < board[row]:
                # rows are counted from 1, so add 1 to the index
                return (row + 1, board[row] - target_size)

    # Step 3: no winning move, so make a random legal move
    # collect the indexes of the rows that still have elements
    candidates = []
    for row in range(len(board)):
        if board[row] > 0:
            candidates.append(row)
    # choose one of them at random
    row = random.choice(candidates)
    # take between 1 and all of its elements (randint includes both ends)
    return (row + 1, random.randint(1, board[row]))


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
