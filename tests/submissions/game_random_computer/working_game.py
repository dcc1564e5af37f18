# -*- coding: utf-8 -*-
# A working_game whose computer takes one element from a random row instead of playing optimal_move.
from __future__ import print_function, division

import random

try:
    read_line = raw_input  # Python 2
except NameError:
    read_line = input  # Python 3


def present_board(board):
    lines = ["Nim:"]
    for number, size in enumerate(board, 1):
        lines.append(str(number) + ":" + " X" * size)
    return "\n".join(lines)


def make_move(board, row, elements):
    new_board = list(board)
    if 1 <= row <= len(board) and 1 <= elements <= board[row - 1]:
        new_board[row - 1] -= elements
        return new_board, True
    return new_board, False


def optimal_move(board):
    total = 0
    for size in board:
        total ^= size
    if total != 0:
        for index, size in enumerate(board):
            if total ^ size < size:
                return (index + 1, size - (total ^ size))
    rows = [index for index, size in enumerate(board) if size > 0]
    index = random.choice(rows)
    return (index + 1, random.randint(1, board[index]))


def is_human(name):
    return "computer" not in name.lower()


def is_board_empty(board):
    for size in board:
        if size != 0:
            return False
    return True


def ask_move(name):
    """Ask a human for a move until they type two whole numbers."""
    while True:
        words = read_line("%s, your move (row, elements): " % name).replace(",", " ").split()
        try:
            row, elements = [int(word) for word in words]
            return row, elements
        except ValueError:
            print("Please type a row and a number of elements, like: 3, 2")


def play_nim(player1, player2, board):
    """Play one game on board; player1 moves first. Announce the winner at the end."""
    players = [player1, player2]
    turn = 0
    print(present_board(board))
    while not is_board_empty(board):
        name = players[turn]
        if is_human(name):
            row, elements = ask_move(name)
        else:
            row, elements = random.choice([i + 1 for i, size in enumerate(board) if size > 0]), 1
            print("%s plays %d, %d" % (name, row, elements))
        board, legal = make_move(board, row, elements)
        if not legal:
            print("That move is not allowed, %s. Try again." % name)
            continue
        print(present_board(board))
        if is_board_empty(board):
            print("%s wins" % name)
            return
        turn = 1 - turn


if __name__ == "__main__":
    first = read_line("Player 1's name: ")
    second = read_line("Player 2's name: ")
    sizes = [int(word) for word in read_line("Board: ").split()]
    play_nim(first, second, sizes)
