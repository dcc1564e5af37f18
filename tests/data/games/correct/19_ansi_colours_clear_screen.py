# Style: coloured with ANSI escape codes (bold, colours, resets) and the screen cleared with
# ESC[2J ESC[H before each board; a numbered menu on three lines in colour, "Choose a mode: ";
# names only for humans, the computer "Computer", the human starts; board fixed 3 4 5, drawn
# "Row 1: X X X"; one line "row elements"; refusals in red; winner "Ada wins!" in green.
from __future__ import print_function, division

import random

try:
    input = raw_input
except NameError:
    pass

RESET = "\033[0m"
BOLD = "\033[1m"
RED = "\033[1;31m"
GREEN = "\033[1;32m"
YELLOW = "\033[33m"
CYAN = "\033[36m"
CLEAR = "\033[2J\033[H"


def paint(colour, text):
    return colour + text + RESET


def show(board):
    print(CLEAR, end="")
    print(paint(BOLD, "=== NIM ==="))
    for number, count in enumerate(board, start=1):
        print("{} {}".format(paint(CYAN, "Row {}:".format(number)),
                             paint(YELLOW, " ".join("X" * count))))


def refuse(text):
    print(paint(RED, text))


def human_move(name, board):
    while True:
        reply = input(paint(BOLD, "{}, your move (row elements): ".format(name))).split()
        if len(reply) != 2 or not all(word.isdigit() for word in reply):
            refuse("Type two whole numbers, like 2 1.")
            continue
        row, count = int(reply[0]), int(reply[1])
        if not 1 <= row <= len(board):
            refuse("There is no row {}.".format(row))
        elif board[row - 1] == 0:
            refuse("Row {} is empty.".format(row))
        elif not 1 <= count <= board[row - 1]:
            refuse("Row {} has only {} left.".format(row, board[row - 1]))
        else:
            return row, count


def computer_move(board):
    total = 0
    for count in board:
        total ^= count
    if total:
        for index, count in enumerate(board):
            if count ^ total < count:
                return index + 1, count - (count ^ total)
    index = random.choice([i for i, count in enumerate(board) if count > 0])
    return index + 1, 1


def choose_mode():
    print(CLEAR + paint(GREEN, "Welcome to Nim!"))
    print(paint(BOLD, "1)") + " Human vs Human")
    print(paint(BOLD, "2)") + " Human vs Computer")
    print(paint(BOLD, "3)") + " Computer vs Computer")
    while True:
        mode = input(paint(CYAN, "Choose a mode: ")).strip()
        if mode in ("1", "2", "3"):
            return int(mode)
        refuse("Please choose 1, 2 or 3.")


def main():
    mode = choose_mode()
    if mode == 1:
        players = [(input("Name of player 1: "), True), (input("Name of player 2: "), True)]
    elif mode == 2:
        players = [(input("What is your name? "), True), ("Computer", False)]
    else:
        players = [("Computer 1", False), ("Computer 2", False)]

    board = [3, 4, 5]
    show(board)
    current = 0
    while True:
        name, human = players[current]
        if human:
            row, count = human_move(name, board)
        else:
            row, count = computer_move(board)
        board[row - 1] -= count
        show(board)
        if not human:
            print(paint(YELLOW, "{} took {} from row {}.".format(name, count, row)))
        if sum(board) == 0:
            print(paint(GREEN, "{} wins!".format(name)))
            break
        current = (current + 1) % 2


main()
