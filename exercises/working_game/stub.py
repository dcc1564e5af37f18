# -*- coding: utf-8 -*-
"""Exercise 9, working_game: the whole game of Nim at the terminal.

Read the statement with `nimlab show working_game`. Keep this file in the same folder as your
earlier exercises: it imports them.
"""
from __future__ import print_function, division

from make_move import make_move
from optimal_move import optimal_move
from present_board import present_board
from ui import is_board_empty, is_human

try:
    read_line = raw_input  # Python 2
except NameError:
    read_line = input  # Python 3


def play_nim(player1, player2, board):
    """Play one game on board; player1 moves first. Announce the winner at the end."""
    # Your code here: show the board (print(present_board(board))), ask each player in turn
    # for a move (or let the computer play), refuse illegal moves, and print "<name> wins"
    # at the end.
    pass


if __name__ == "__main__":
    first = read_line("Player 1's name: ")
    second = read_line("Player 2's name: ")
    sizes = [int(word) for word in read_line("Board: ").split()]
    play_nim(first, second, sizes)
