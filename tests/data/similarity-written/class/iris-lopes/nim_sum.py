# -*- coding: utf-8 -*-
"""Exercise 6, nim_sum: the nim-sum of a board, and who is winning.

Read the statement with `nimlab show nim_sum`, then check your work with
`nimlab check nim_sum.py`.
"""
from __future__ import print_function, division


def xor_two(a,b):
    # XOR of two numbers, in its own function so I can test it on its own
    return a^b


def nim_sum(board):
    """Return the XOR of all row sizes of board (0 for an empty board)."""
    # start at 0 because 0 XOR anything gives the same thing back
    result=0
    # go through every row of the board
    for row in board:
        # combine what we have so far with this row
        result=xor_two(result,row)
    # now this is the XOR of all the rows (still 0 if the board was empty)
    return result


def is_n_position(board):
    """Return True when the nim-sum of board is 0."""
    # a nim-sum of 0 means there is no good move
    return nim_sum(board)==0


def is_p_position(board):
    """Return True when the nim-sum of board is not 0."""
    # anything else means a winning move is possible
    return nim_sum(board)!=0


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
