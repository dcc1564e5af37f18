# -*- coding: utf-8 -*-
"""Exercise 6, nim_sum: the nim-sum of a board, and who is winning.

Read the statement with `nimlab show nim_sum`, then check your work with
`nimlab check nim_sum.py`.
"""
from __future__ import print_function, division


def nim_sum(board):
    """Return the XOR of all row sizes of board (0 for an empty board)."""
    # make a copy so we dont change the board
    rows = []
    for r in board:
        rows.append(r)
    number_of_rows = len(rows)
    if number_of_rows == 0:
        return 0
    else:
        pass
    total = 0
    count = 0
    for i in range(number_of_rows):
        current = rows[i]
        total = total ^ current
        count = count + 1
    # print(count)
    return total


def is_n_position(board):
    """Return True when the nim-sum of board is 0."""
    result = nim_sum(board)
    is_zero = False
    if result == 0:
        is_zero = True
    else:
        is_zero = False
    if is_zero == True:
        return True
    else:
        return False


def is_p_position(board):
    """Return True when the nim-sum of board is not 0."""
    result = nim_sum(board)
    # p position is the opposite
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
