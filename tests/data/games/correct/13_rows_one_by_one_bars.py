# Style: names in the lab's convention ("Player 1's name: ", "Player 2's name: "; a name with
# "computer" in it is a computer), the board asked row by row ("How many rows? ", then "How
# many elements in row 1? "...), drawn as "Row 1: ||| (3 left)"; moves "row, elements"; the
# computer moves silently; winner "Congratulations Ada, you won the game!". Python 3 flavour.
from __future__ import print_function, division

import random

try:
    input = raw_input
except NameError:
    pass


def whole_number(question, minimum):
    while True:
        reply = input(question).strip()
        if reply.isdigit() and int(reply) >= minimum:
            return int(reply)
        print("Please type a whole number, {} or more.".format(minimum))


def display(rows):
    print("-" * 20)
    for index, left in enumerate(rows):
        print("Row {}: {} ({} left)".format(index + 1, "|" * left, left))
    print("-" * 20)


def optimal(rows):
    xor = 0
    for left in rows:
        xor ^= left
    winning = [(i, left - (left ^ xor)) for i, left in enumerate(rows) if (left ^ xor) < left]
    if xor != 0 and winning:
        return winning[0]
    index = random.choice([i for i, left in enumerate(rows) if left > 0])
    return index, random.randint(1, rows[index])


def ask(name, rows):
    while True:
        reply = input("{}: which row and how many? (row, elements) ".format(name))
        pieces = [piece.strip() for piece in reply.split(",")]
        if len(pieces) != 2 or not all(piece.isdigit() for piece in pieces):
            print("Answer like this: 2, 1")
            continue
        row, amount = int(pieces[0]), int(pieces[1])
        if not 1 <= row <= len(rows):
            print("Pick a row between 1 and {}.".format(len(rows)))
        elif rows[row - 1] == 0:
            print("Row {} is empty.".format(row))
        elif not 1 <= amount <= rows[row - 1]:
            print("Take between 1 and {} from row {}.".format(rows[row - 1], row))
        else:
            return row - 1, amount


names = [input("Player 1's name: "), input("Player 2's name: ")]
count = whole_number("How many rows? ", 1)
rows = [whole_number("How many elements in row {}? ".format(r), 0) for r in range(1, count + 1)]
while sum(rows) == 0:
    print("There must be at least one element on the board.")
    rows = [whole_number("How many elements in row {}? ".format(r), 0) for r in range(1, count + 1)]

display(rows)
turn = 0
while True:
    name = names[turn]
    if "computer" in name.lower():
        index, amount = optimal(rows)
    else:
        index, amount = ask(name, rows)
    rows[index] -= amount
    display(rows)
    if sum(rows) == 0:
        print("Congratulations {}, you won the game!".format(name))
        break
    turn = (turn + 1) % 2
