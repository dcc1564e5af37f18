# -*- coding: utf-8 -*-
"""Exercise 6, nim_sum: the nim-sum of a board, and who is winning.

Read the statement with `nimlab show nim_sum`, then check your work with
`nimlab check nim_sum.py`.
"""
from __future__ import print_function, division


def nim_sum(board):
    """Return the XOR of all row sizes of board (0 for an empty board)."""
    # Your code here.
    # begin with 0 because anything XOR 0 is itself
    total = 0
    # loop over each row of the board
    for heap in board:
        # XOR the current total with the size of this row
        total ^= heap
    # total is now the nim-sum of the whole board
    return total


def is_n_position(board):
    """Return True when the nim-sum of board is 0."""
    # Your code here.
    # compute the nim-sum of the board
    result = nim_sum(board)
    # N-position means the nim-sum is exactly 0
    return result == 0


def is_p_position(board):
    """Return True when the nim-sum of board is not 0."""
    # Your code here.
    # compute the nim-sum of the board
    result = nim_sum(board)
    # P-position means the nim-sum is anything except 0
    return result != 0


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    answer = {
        "nim_sum": nim_sum,
        "is_n_position": is_n_position,
        "is_p_position": is_p_position,
    }[case["type"]](case["input"])
    print(json.dumps(answer))
