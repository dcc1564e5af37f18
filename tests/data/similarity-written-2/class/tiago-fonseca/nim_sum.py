# -*- coding: utf-8 -*-
"""Exercise 6, nim_sum: the nim-sum of a board, and who is winning.

Read the statement with `nimlab show nim_sum`, then check your work with
`nimlab check nim_sum.py`.
"""
from __future__ import print_function, division


def nim_sum(board):

    x = 0

    i = 0
    while i < len(board):

        x = x ^ board[i]

        i += 1


    return x




def is_n_position(board):
    n = nim_sum(board)

    return n == 0



def is_p_position(board):

    n = nim_sum(board)
    return n != 0


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
