# Style: the lab's own convention. Asks "Player 1's name: ", "Player 2's name: " and
# "Board: " (sizes on one line); a name containing "computer" is played by the computer.
# Moves typed as "row, elements" (the comma is required), boards in present_board's format,
# winner as "Ada wins". Python 2 flavour: % formatting, small functions like the lab's files.
from __future__ import print_function, division

import random

try:
    input = raw_input
except NameError:
    pass


def present_board(board):
    text = "Nim:"
    for i in range(len(board)):
        text = text + "\n" + "%d:" % (i + 1) + " X" * board[i]
    return text


def make_move(board, row, elements):
    if row < 1 or row > len(board):
        return False, "There is no row %d." % row
    if elements < 1:
        return False, "You have to take at least one element."
    if elements > board[row - 1]:
        return False, "Row %d only has %d elements." % (row, board[row - 1])
    board[row - 1] = board[row - 1] - elements
    return True, ""


def nim_sum(board):
    total = 0
    for size in board:
        total = total ^ size
    return total


def optimal_move(board):
    total = nim_sum(board)
    if total != 0:
        for i in range(len(board)):
            if board[i] ^ total < board[i]:
                return i + 1, board[i] - (board[i] ^ total)
    # A lost position: any legal move will do.
    rows = [i for i in range(len(board)) if board[i] > 0]
    i = random.choice(rows)
    return i + 1, random.randint(1, board[i])


def is_human(name):
    return "computer" not in name.lower()


def is_board_empty(board):
    return sum(board) == 0


def read_move(name):
    while True:
        text = input("%s, your move (row, elements): " % name)
        parts = text.split(",")
        if len(parts) != 2:
            print("Please type the row and the number of elements with a comma between them, like 3, 2")
            continue
        try:
            return int(parts[0]), int(parts[1])
        except ValueError:
            print("The row and the number of elements must be whole numbers.")


def play_nim(player1, player2, board):
    players = [player1, player2]
    turn = 0
    print(present_board(board))
    while not is_board_empty(board):
        name = players[turn]
        if is_human(name):
            row, elements = read_move(name)
        else:
            row, elements = optimal_move(board)
            print("%s takes %d from row %d" % (name, elements, row))
        ok, why = make_move(board, row, elements)
        if not ok:
            print("Illegal move: %s Try again." % why)
            continue
        print(present_board(board))
        if is_board_empty(board):
            print("%s wins" % name)
        else:
            turn = 1 - turn


def read_board():
    while True:
        words = input("Board: ").split()
        try:
            sizes = [int(w) for w in words]
        except ValueError:
            print("Type the row sizes as whole numbers separated by spaces, like 5 4 3 2 1")
            continue
        if sizes and min(sizes) >= 0 and sum(sizes) > 0:
            return sizes
        print("The board needs at least one element and no negative rows.")


if __name__ == "__main__":
    first = input("Player 1's name: ")
    second = input("Player 2's name: ")
    play_nim(first, second, read_board())
