# -*- coding: utf-8 -*-
"""Exercise 6, nim_sum: the nim-sum of a board, and who is winning.

Read the statement with `nimlab show nim_sum`, then check your work with
`nimlab check nim_sum.py`.
"""
from __future__ import print_function, division


def _nim_sum_from(board, i):
    # XOR of board[i:], computed recursively without slicing
    # (a slice would copy the rest of the list at every level).
    if i == len(board):
        # past the last row: the XOR of nothing is 0
        return 0
    # this row XOR the nim-sum of all the rows after it
    return board[i] ^ _nim_sum_from(board, i + 1)


def nim_sum(board):
    # start the recursion at the first row
    return _nim_sum_from(board, 0)


def is_n_position(board):
    # N-position: nim-sum is 0, the player to move loses against perfect play
    return nim_sum(board) == 0


def is_p_position(board):
    # P-position: nim-sum is not 0, a winning move exists
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
