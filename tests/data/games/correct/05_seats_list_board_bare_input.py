# Style: "Is player 1 a human or a computer? (h/c) " per seat, names only for humans,
# computers "Computer 1" / "Computer 2". Board fixed (3 4 5), printed as a Python list. Moves:
# print("Choose a row:") then input() with no prompt, the same for the number; a bad number
# asks again only for the number (the row stays chosen). "Victory for Ada!". Python 2 flavour.
from __future__ import print_function, division

import random

try:
    input = raw_input
except NameError:
    pass


def read_int():
    text = input()
    try:
        return int(text)
    except ValueError:
        return None


def pick_row(board):
    while True:
        print("Choose a row:")
        row = read_int()
        if row is None:
            print("That is not a number.")
        elif row < 1 or row > len(board):
            print("There is no row %s." % row)
        elif board[row - 1] == 0:
            print("Row %d is empty, choose another one." % row)
        else:
            return row


def pick_amount(board, row):
    while True:
        print("How many elements?")
        amount = read_int()
        if amount is None:
            print("That is not a number.")
        elif amount < 1:
            print("You must take at least 1.")
        elif amount > board[row - 1]:
            print("Row %d only has %d." % (row, board[row - 1]))
        else:
            return amount


def computer(board):
    nimsum = 0
    for size in board:
        nimsum ^= size
    if nimsum > 0:
        for i, size in enumerate(board):
            if size ^ nimsum < size:
                return i + 1, size - (size ^ nimsum)
    rows = [i + 1 for i, size in enumerate(board) if size > 0]
    row = random.choice(rows)
    return row, random.randint(1, board[row - 1])


players = []
for seat in (1, 2):
    kind = ""
    while kind not in ("h", "c"):
        kind = input("Is player %d a human or a computer? (h/c) " % seat).strip().lower()
    if kind == "h":
        players.append((input("Name of player %d: " % seat), "human"))
    else:
        players.append(("Computer %d" % seat, "computer"))

board = [3, 4, 5]
print("The board is now:")
print(board)
turn = 0
while sum(board) > 0:
    name, kind = players[turn]
    print("%s's turn." % name)
    if kind == "human":
        row = pick_row(board)
        amount = pick_amount(board, row)
    else:
        row, amount = computer(board)
        print("%s took %d from row %d" % (name, amount, row))
    board[row - 1] -= amount
    print("The board is now:")
    print(board)
    if sum(board) == 0:
        print("Victory for %s!" % name)
    else:
        turn = 1 - turn
