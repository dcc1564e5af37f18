# -*- coding: utf-8 -*-
from __future__ import print_function, division

import random


def optimal_move(board):

    # nim sum
    total = 0
    for i in range(len(board)):
        total = total ^ board[i]


    found = False
    row = 0
    elements = 0

    if total != 0:

        i = 0
        for size in board:
            target = total ^ size
            if target < size and found == False:
                row = i + 1
                elements = size - target
                found = True
            i = i + 1


    # losing position so take 1 from the first row that is not empty
    if found == False:

        for i in range(len(board)):
            if board[i] > 0 and found == False:
                row = i + 1
                elements = 1
                found = True


    return (row, elements)



# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
