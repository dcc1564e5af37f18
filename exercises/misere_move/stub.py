# -*- coding: utf-8 -*-
"""Exercise 10 (further study), misere_move: the winning move when taking the last element loses.

Read the statement with `nimlab show misere_move`, then check your work with
`nimlab check misere_move.py`.
"""
from __future__ import print_function, division

import random


def misere_move(board):
    """Return a move (row, elements), row counted from 1, for a non-empty board, under misere
    rules (whoever takes the last element loses).

    Play as optimal_move does, until the move would leave no row of two or more elements:
    then leave an odd number of rows holding exactly one element.
    """
    # Your code here.
    return (1, 1)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(misere_move(case["board"])))
