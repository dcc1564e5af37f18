# -*- coding: utf-8 -*-
"""Exercise 7, optimal_move: the computer's perfect move.

Read the statement with `nimlab show optimal_move`, then check your work with
`nimlab check optimal_move.py`.
"""
from __future__ import print_function, division

import random


def optimal_move(board):
    # First work out the nim-sum of the whole board
    nim_sum = 0
    for heap in board:
        nim_sum = nim_sum ^ heap

    # If the nim-sum is not zero we can win, so look for the right row
    if nim_sum != 0:
        for i in range(len(board)):
            # this is how big row i has to be after our move
            wanted = nim_sum ^ board[i]
            # we can only take elements away, so the row must be bigger than wanted
            if wanted < board[i]:
                # make a copy of the board and try the move on it
                test_board = list(board)
                test_board[i] = wanted
                # check that the new board really has nim-sum 0
                check = 0
                for heap in test_board:
                    check = check ^ heap
                if check == 0:
                    return (i + 1, board[i] - wanted)

    # Otherwise we are losing, so just pick a random row that is not empty
    rows_left = []
    for i in range(len(board)):
        if board[i] != 0:
            rows_left.append(i)
    row = random.choice(rows_left)
    # and take a random number of elements from it (at least 1)
    amount = random.randint(1, board[row])
    return (row + 1, amount)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
