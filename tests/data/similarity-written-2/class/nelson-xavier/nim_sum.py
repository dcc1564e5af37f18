# -*- coding: utf-8 -*-
"""Exercise 6, nim_sum: the nim-sum of a board, and who is winning.

Read the statement with `nimlab show nim_sum`, then check your work with
`nimlab check nim_sum.py`.
"""

from __future__ import print_function, division



def _xor(a, b):
    """XOR of two row sizes (just a readable wrapper around ^)."""
    return a ^ b



def nim_sum(board):
    """Return the XOR of all row sizes of board (0 for an empty board)."""
    # Your code here.

    # Defensive: treat a missing board like an empty one
    if board is None:
        return 0

    acc = 0   # 0 is the identity for XOR, so an empty board gives 0

    i = 0
    while i < len(board):
        size = board[i]

        # a row can't hold a negative number of elements: the board is broken
        if size < 0:
            raise ValueError("negative row size: %r" % (size,))

        # fold this row into the running nim-sum
        acc = _xor(acc, size)
        i += 1

    return acc




def is_n_position(board):
    """Return True when the nim-sum of board is 0."""
    # Your code here.

    # nim-sum 0: every move hands the opponent a winning board
    return nim_sum(board) == 0



def is_p_position(board):
    """Return True when the nim-sum of board is not 0."""
    # Your code here.

    # nim-sum != 0: some move brings it back to 0, so we can win
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
