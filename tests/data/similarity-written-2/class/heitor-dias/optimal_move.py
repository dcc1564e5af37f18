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
    # nim-sum of all rows
    x=0
    for r in board:
        x^=r
    if x:
        # highest set bit of the nim-sum
        top=1<<(x.bit_length()-1)
        # a row with that bit set always gets smaller when xored with x,
        # since x flips that bit from 1 to 0 and the lower bits can't make up for it
        for i,r in enumerate(board):
            if r&top:
                return (i+1,r-(r^x))
    # losing position: any legal move, chosen at random
    rows=[i for i,r in enumerate(board) if r>0]
    i=random.choice(rows)
    return (i+1,random.randint(1,board[i]))


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
