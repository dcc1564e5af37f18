from __future__ import division, print_function


def is_human(player_string):
    return "computer" not in player_string.lower()


def is_board_empty(board):
    return sum(board) == 0
