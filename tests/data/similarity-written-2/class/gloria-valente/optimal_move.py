# -*- coding: utf-8 -*-
from __future__ import print_function, division

import random



def optimal_move(board):

    # work out the nim-sum
    x = 0

    for n in board:
        x ^= n


    if x != 0:

        for i in range(len(board)):

            if (x ^ board[i]) < board[i]:

                return (i + 1, board[i] - (x ^ board[i]))


    # no good move, just take 1 from a non-empty row
    for i in range(len(board)):
        if board[i] != 0:

            return (i + 1, 1)



# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
