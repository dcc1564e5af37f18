# Style: every line printed ends with "\r\n" (written on Windows); menu of letters on lines
# ("P) two players", "C) play the computer", "W) watch the computer play itself"), "Choose P, C
# or W: "; names only for humans; board fixed 3 4 5 drawn "Row 1: I I I"; the nim-sum and a hint
# printed before each human move; one line "row elements"; winner "Ada has won!".
from __future__ import print_function, division

import sys

try:
    input = raw_input
except NameError:
    pass


def say(text):
    sys.stdout.write(text + "\r\n")
    sys.stdout.flush()


def draw(board):
    for number, count in enumerate(board, start=1):
        say("Row {}: {}".format(number, " ".join("I" * count)))


def nim_sum(board):
    total = 0
    for count in board:
        total ^= count
    return total


def best_move(board):
    total = nim_sum(board)
    for index, count in enumerate(board):
        if total and count ^ total < count:
            return index, count - (count ^ total)
    for index, count in enumerate(board):
        if count:
            return index, 1


def read_move(name, board):
    say("Nim-sum: {}".format(nim_sum(board)))
    row, count = best_move(board)
    if nim_sum(board):
        say("Hint: a winning move takes {} from row {}.".format(count, row + 1))
    else:
        say("Hint: no winning move here, take one and hope.")
    while True:
        parts = input("{}, row and elements: ".format(name)).split()
        if len(parts) == 2 and parts[0].isdigit() and parts[1].isdigit():
            row, count = int(parts[0]), int(parts[1])
            if 1 <= row <= len(board) and 1 <= count <= board[row - 1]:
                return row - 1, count
        say("That is not a legal move.")


def main():
    say("P) two players")
    say("C) play the computer")
    say("W) watch the computer play itself")
    mode = input("Choose P, C or W: ").strip().upper()
    while mode not in ("P", "C", "W"):
        mode = input("Choose P, C or W: ").strip().upper()
    if mode == "P":
        players = [(input("Player 1's name: "), True), (input("Player 2's name: "), True)]
    elif mode == "C":
        players = [(input("Your name: "), True), ("Computer", False)]
    else:
        players = [("Computer 1", False), ("Computer 2", False)]
    board = [3, 4, 5]
    draw(board)
    turn = 0
    while True:
        name, human = players[turn]
        if human:
            row, count = read_move(name, board)
        else:
            row, count = best_move(board)
            say("{} takes {} from row {}.".format(name, count, row + 1))
        board[row] -= count
        draw(board)
        if sum(board) == 0:
            say("{} has won!".format(name))
            break
        turn = 1 - turn


main()
