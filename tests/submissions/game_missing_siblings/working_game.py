# -*- coding: utf-8 -*-
"""A student's game that imports the earlier exercises, handed in without them."""
from __future__ import print_function, division

from present_board import present_board
from make_move import make_move
from optimal_move import optimal_move
from ui import is_board_empty, is_human

try:
    read_line = raw_input  # Python 2
except NameError:
    read_line = input  # Python 3


def play_nim(player1, player2, board):
    players = [player1, player2]
    turn = 0
    print(present_board(board))
    while not is_board_empty(board):
        name = players[turn]
        if is_human(name):
            words = read_line("%s, your move: " % name).replace(",", " ").split()
            try:
                row, elements = [int(word) for word in words]
            except ValueError:
                print("Type a row and a number of elements, like 3, 2")
                continue
        else:
            row, elements = optimal_move(board)
            print("%s plays %d, %d" % (name, row, elements))
        board, legal = make_move(board, row, elements)
        if not legal:
            print("Not allowed. Try again, %s." % name)
            continue
        print(present_board(board))
        turn = 1 - turn
    print("%s wins" % players[1 - turn])


if __name__ == "__main__":
    first = read_line("Player 1's name: ")
    second = read_line("Player 2's name: ")
    sizes = [int(word) for word in read_line("Board: ").split()]
    play_nim(first, second, sizes)
