# -*- coding: utf-8 -*-
"""Exercise 7, optimal_move: the computer's perfect move.

Read the statement with `nimlab show optimal_move`, then check your work with
`nimlab check optimal_move.py`.
"""

from __future__ import print_function, division

import random


def optimal_move(board):
    """Return a move (row, elements), row counted from 1, for a non-empty board.

    When the nim-sum is not 0, the move must leave nim-sum 0. Otherwise any legal move will do.
    """

    # Your code here.

    nimsum = 0

    for r in board:

        nimsum = nimsum ^ r

    if nimsum == 0:

        for i in range(len(board)):
            if board[i] > 0:
                return (i + 1, 1)

    for i in range(len(board)):

        new = nimsum ^ board[i]

        if new < board[i]:
            return (i + 1, board[i] - new)



# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
