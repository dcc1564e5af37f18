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
    for row in range(len(board)):
        for elements in range(1, board[row] + 1):
            new_board = list(board)
            new_board[row] = new_board[row] - elements
            total = 0
            for x in new_board:
                total = total ^ x
            if total == 0:
                return (row + 1, elements)
    rows = []
    for row in range(len(board)):
        if board[row] > 0:
            rows.append(row)
    row = random.choice(rows)
    elements = random.randint(1, board[row])
    return (row + 1, elements)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
