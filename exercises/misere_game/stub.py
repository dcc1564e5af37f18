# -*- coding: utf-8 -*-
"""Exercise 11 (further study), misere_game: Nim at the terminal, where the last element loses.

Read the statement with `nimlab show misere_game`. Keep this file in the same folder as your
earlier exercises and misere_move.py: it imports them.
"""
from __future__ import print_function, division

from make_move import make_move
from misere_move import misere_move
from present_board import present_board
from ui import is_board_empty, is_human

try:
    read_line = raw_input  # Python 2
except NameError:
    read_line = input  # Python 3


def play_misere(player1, player2, board):
    """Play one misere game on board; player1 moves first. Whoever takes the last element
    loses: announce the other player as the winner at the end."""
    # Your code here: your play_nim from working_game, with the computer playing misere_move
    # and the winner announced the misere way ("<name> wins" for the one who did NOT take
    # the last element).
    pass


if __name__ == "__main__":
    first = read_line("Player 1's name: ")
    second = read_line("Player 2's name: ")
    sizes = [int(word) for word in read_line("Board: ").split()]
    play_misere(first, second, sizes)
