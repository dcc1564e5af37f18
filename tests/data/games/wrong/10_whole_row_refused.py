# Mistake (an off-by-one): a human may not take a whole row, as if the row held one
# element fewer. Otherwise correct-game 14 (yes/no questions, commas, "1: 3" boards).
# expect: legal_accepted
from __future__ import print_function, division

import random

try:
    input = raw_input
except NameError:
    pass

board = []
names = ["", ""]
computer = [False, False]
turn = 0


def yes_no(question):
    answer = input(question).strip().lower()
    while answer not in ("y", "yes", "n", "no"):
        answer = input("Please answer yes or no: ").strip().lower()
    return answer in ("y", "yes")


def set_up():
    global board
    if yes_no("Should the computer play both sides? yes/no "):
        names[0], names[1] = "Computer 1", "Computer 2"
        computer[0] = computer[1] = True
    else:
        print("Player 1:")
        names[0] = input("What is your name? ")
        if yes_no("Is player 2 a computer? [y/n] "):
            names[1] = "Computer"
            computer[1] = True
        else:
            print("Player 2:")
            names[1] = input("What is your name? ")
    while True:
        text = input("Enter the row sizes separated by commas: ")
        try:
            board = [int(size) for size in text.split(",")]
        except ValueError:
            print("Try again, like this: 1,3,5,7")
            continue
        if board and min(board) >= 0 and sum(board) > 0:
            break
        print("Try again, with at least one element.")


def show():
    for row in range(len(board)):
        print("{}: {}".format(row + 1, board[row]))


def integer(prompt):
    try:
        return int(input(prompt))
    except ValueError:
        return 0


def human_turn():
    while True:
        row = integer("Which row? ")
        if row < 1 or row > len(board):
            print("There is no such row.")
            continue
        amount = integer("How many elements? ")
        if amount < 1 or amount >= board[row - 1]:
            print("You can't take that many. Choose your row again.")
            continue
        board[row - 1] -= amount
        return


def computer_turn():
    nim_sum = 0
    for size in board:
        nim_sum ^= size
    for row in range(len(board)):
        if nim_sum and board[row] ^ nim_sum < board[row]:
            amount = board[row] - (board[row] ^ nim_sum)
            break
    else:
        row = random.choice([r for r in range(len(board)) if board[r]])
        amount = random.randint(1, board[row])
    board[row] -= amount
    print("{} takes {} from row {}".format(names[turn], amount, row + 1))


set_up()
show()
while sum(board) > 0:
    if computer[turn]:
        computer_turn()
    else:
        print("{}, your turn.".format(names[turn]))
        human_turn()
    show()
    if sum(board) == 0:
        print("{} wins!".format(names[turn]))
    else:
        turn = 1 - turn
