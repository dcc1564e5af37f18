from __future__ import division, print_function


def nim_sum(board):
    total = 0
    for row in board:
        total = total ^ row
    return total


def is_n_position(board):
    return nim_sum(board) == 0


def is_p_position(board):
    return nim_sum(board) != 0
