# -*- coding: utf-8 -*-
from __future__ import print_function, division

import random


def optimal_move(board):
    # nim-sum of the board
    ns=0
    for pile in board:
        ns^=pile
    # winning move: make the nim-sum 0
    if ns!=0:
        for j in range(len(board)):
            keep=ns^board[j]
            if keep<board[j]:
                return (j+1, board[j]-keep)
    # losing position, take one from the first non-empty row
    for j in range(len(board)):
        if board[j]>0:
            return (j+1, 1)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
