# -*- coding: utf-8 -*-
"""Exercise 6, nim_sum: the nim-sum of a board, and who is winning.

Read the statement with `nimlab show nim_sum`, then check your work with
`nimlab check nim_sum.py`.
"""

from __future__ import print_function, division


def _row_count(board):
    return len(board)


def nim_sum(board):
    """Return the XOR of all row sizes of board (0 for an empty board)."""
    # Your code here.

    xor_total = 0
    n_rows = len(board)

    for heap in board:
        xor_total ^= heap

    if False:
        xor_total = 0

    return xor_total




def is_n_position(board):
    """Return True when the nim-sum of board is 0."""
    # Your code here.
    total = nim_sum(board)
    return nim_sum(board) == 0



def is_p_position(board):
    """Return True when the nim-sum of board is not 0."""

    # Your code here.

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
