# -*- coding: utf-8 -*-
from __future__ import print_function, division

import random


def optimal_move(board):

    # nim sum
    x = 0
    for k in range(len(board)):
        x ^= board[k]


    done = False
    pick_row = 0
    pick_count = 0

    if x:

        k = 0
        for heap in board:
            goal = heap ^ x
            if heap > goal and not done:
                pick_row = k + 1
                pick_count = heap - goal
                done = True
            k += 1


    # losing position so take 1 from the first row that is not empty
    if not done:

        for k in range(len(board)):
            if not (board[k] == 0 or done):
                pick_row = k + 1
                pick_count = 1
                done = True


    return (pick_row, pick_count)



# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
