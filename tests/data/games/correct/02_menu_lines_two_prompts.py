# Style: a numbered mode menu on three lines, then "Choose a mode: "; names asked only for
# the humans, the computer is called "Computer"; the human always starts against the computer.
# The board is fixed in the code (5 4 3 2 1) and drawn as "Row 1: ||||| (5 left)". Moves are
# asked in two prompts ("Which row?" then "How many elements?"); winner "The winner is: Ada".
from __future__ import print_function, division

import random

try:
    input = raw_input
except NameError:
    pass

START_BOARD = [5, 4, 3, 2, 1]


def show(board):
    for number, count in enumerate(board, start=1):
        print("Row {}: {} ({} left)".format(number, "|" * count, count))


def ask_number(prompt):
    """Returns the number typed, or None if it is not a whole number."""
    answer = input(prompt).strip()
    try:
        return int(answer)
    except ValueError:
        return None


def human_move(name, board):
    while True:
        row = ask_number("{}, which row? ".format(name))
        if row is None or not 1 <= row <= len(board):
            print("Row must be a number from 1 to {}.".format(len(board)))
            continue
        if board[row - 1] == 0:
            print("Row {} is already empty.".format(row))
            continue
        count = ask_number("How many elements? ")
        if count is None or not 1 <= count <= board[row - 1]:
            print("You can take 1 to {} elements from row {}. Let's try that again.".format(
                board[row - 1], row))
            continue
        return row, count


def computer_move(board):
    total = 0
    for count in board:
        total ^= count
    if total:
        for index, count in enumerate(board):
            if count ^ total < count:
                return index + 1, count - (count ^ total)
    choices = [index for index, count in enumerate(board) if count > 0]
    index = random.choice(choices)
    return index + 1, 1


def choose_mode():
    print("Welcome to Nim!")
    print("1) Human vs Human")
    print("2) Human vs Computer")
    print("3) Computer vs Computer")
    while True:
        mode = input("Choose a mode: ").strip()
        if mode in ("1", "2", "3"):
            return int(mode)
        print("Please choose 1, 2 or 3.")


def main():
    mode = choose_mode()
    if mode == 1:
        players = [(input("Name of player 1: "), True), (input("Name of player 2: "), True)]
    elif mode == 2:
        players = [(input("What is your name? "), True), ("Computer", False)]
    else:
        players = [("Computer 1", False), ("Computer 2", False)]

    board = list(START_BOARD)
    show(board)
    current = 0
    while True:
        name, human = players[current]
        if human:
            row, count = human_move(name, board)
        else:
            row, count = computer_move(board)
            print("{} removes {} from row {}.".format(name, count, row))
        board[row - 1] -= count
        show(board)
        if sum(board) == 0:
            print("The winner is: {}".format(name))
            break
        current = (current + 1) % 2


main()
