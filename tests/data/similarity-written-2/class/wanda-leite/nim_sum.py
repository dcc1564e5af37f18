# -*- coding: utf-8 -*-
"""Exercise 6, nim_sum: the nim-sum of a board, and who is winning.

Read the statement with `nimlab show nim_sum`, then check your work with
`nimlab check nim_sum.py`.
"""
from __future__ import print_function, division


def nim_sum(board):

    # copy the board first so popping rows doesn't change the caller's list
    rows = list(board)

    # running xor, stays 0 for an empty board
    result = 0

    # take rows off the end one at a time until there are none left
    while rows:
        result ^= rows.pop()

    # every row has been xored in
    return result



def is_n_position(board):

    # nim-sum of 0 means N-position (no good move)
    return nim_sum(board) == 0




def is_p_position(board):
    # anything else is a P-position, i.e. just the opposite of is_n_position
    return not is_n_position(board)


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
