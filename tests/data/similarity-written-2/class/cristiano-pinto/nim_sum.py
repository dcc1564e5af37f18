# -*- coding: utf-8 -*-
"""Exercise 6, nim_sum: the nim-sum of a board, and who is winning.

Read the statement with `nimlab show nim_sum`, then check your work with
`nimlab check nim_sum.py`.
"""
from __future__ import print_function, division


def nim_sum(board):
    # Start from 0: XOR with 0 changes nothing, and an empty board must give 0.
    running_xor = 0
    # Go through the rows one by one.
    for row_size in board:
        # Fold this row into the running XOR (order does not matter for XOR).
        running_xor ^= row_size
    # Every row has been XORed in, so this is the nim-sum.
    return running_xor


def is_n_position(board):
    # N-position in this lab = nim-sum is 0 = no good move for the player to move.
    return nim_sum(board) == 0


def is_p_position(board):
    # P-position in this lab = nim-sum is not 0 = a winning move is possible.
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
