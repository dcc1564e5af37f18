# -*- coding: utf-8 -*-
"""Exercise 6, nim_sum: the nim-sum of a board, and who is winning.

Read the statement with `nimlab show nim_sum`, then check your work with
`nimlab check nim_sum.py`.
"""
from __future__ import print_function, division
from functools import reduce
from operator import xor


def nim_sum(board):
    # reduce applies xor pairwise from the left: ((b0 ^ b1) ^ b2) ^ ...
    # The initial value 0 makes an empty board give 0 instead of raising
    # a TypeError, and since 0 ^ x == x it does not change the result.
    return reduce(xor, board, 0)


def is_n_position(board):
    # In this lab a nim-sum of 0 is an N-position: no good move exists
    # for the player to move (the lab uses the opposite of the textbook names).
    return nim_sum(board) == 0


def is_p_position(board):
    # Every other board is a P-position: a winning move is possible,
    # namely one that brings the nim-sum back to 0.
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
