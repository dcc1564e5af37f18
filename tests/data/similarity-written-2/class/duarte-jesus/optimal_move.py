# -*- coding: utf-8 -*-
from __future__ import print_function, division

import random


def optimal_move(board):
    # nim-sum of the board
    xor=0
    for heap in board:
        xor^=heap
    # winning move: make the nim-sum 0
    if xor!=0:
        for i in range(len(board)):
            goal=xor^board[i]
            if goal<board[i]:
                return (i+1, board[i]-goal)
    # losing position, take one from the first non-empty row
    for i in range(len(board)):
        if board[i]>0:
            return (i+1, 1)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
