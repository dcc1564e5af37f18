# -*- coding: utf-8 -*-
"""Model solution for exercise 6, nim_sum (the textbook naming)."""
from __future__ import print_function, division


def nim_sum(board):
    """Return the XOR of all row sizes of board (0 for an empty board)."""
    total = 0
    for size in board:
        total ^= size
    return total


def is_p_position(board):
    """Return True when the nim-sum of board is 0."""
    return nim_sum(board) == 0


def is_n_position(board):
    """Return True when the nim-sum of board is not 0."""
    return nim_sum(board) != 0


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
