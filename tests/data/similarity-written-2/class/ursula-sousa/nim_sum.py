# -*- coding: utf-8 -*-
"""Exercise 6, nim_sum: the nim-sum of a board, and who is winning.

Read the statement with `nimlab show nim_sum`, then check your work with
`nimlab check nim_sum.py`.
"""
from __future__ import print_function, division


def nim_sum(board):
    """Return the XOR of all row sizes of board (0 for an empty board)."""
    n = len(board)
    s = 0
    for i in range(n):
        s = s ^ board[i]
    return s


def is_n_position(board):
    """Return True when the nim-sum of board is 0."""
    if nim_sum(board) == 0:
        return True
    else:
        return False


def is_p_position(board):
    """Return True when the nim-sum of board is not 0."""
    if is_n_position(board) == True:
        return False
    else:
        return True


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
