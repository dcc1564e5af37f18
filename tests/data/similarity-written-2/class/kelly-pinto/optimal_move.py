# -*- coding: utf-8 -*-
"""Exercise 7, optimal_move: the computer's perfect move.

Read the statement with `nimlab show optimal_move`, then check your work with
`nimlab check optimal_move.py`.
"""
from __future__ import print_function, division

import random


def nim_sum(board):
    # XOR of every row size, as in exercise 6

    result = 0
    for size in board:
        result ^= size

    return result



def winning_moves(board):
    # Every move that leaves the board with nim-sum 0.
    # A row of size r must go down to x ^ r, which is only
    # possible when x ^ r is smaller than r.

    x = nim_sum(board)
    moves = []

    for index, size in enumerate(board):
        target = x ^ size
        if target < size:
            moves.append((index + 1, size - target))

    return moves



def legal_moves(board):
    # Every legal move: any non-empty row, from 1 element up to the whole row

    return [(index + 1, taken)
            for index, size in enumerate(board)
            for taken in range(1, size + 1)]



def optimal_move(board):
    """Return a move (row, elements), row counted from 1, for a non-empty board.

    When the nim-sum is not 0, the move must leave nim-sum 0. Otherwise any legal move will do.
    """
    # Your code here.

    # When the nim-sum is 0 the list is empty and we fall back on a random legal move
    moves = winning_moves(board)
    if moves:
        return random.choice(moves)

    # pick the row first, so that huge rows don't make a huge list
    rows = [index for index, size in enumerate(board) if size > 0]
    index = random.choice(rows)

    return (index + 1, random.randint(1, board[index]))


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
