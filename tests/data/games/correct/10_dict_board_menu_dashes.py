# Style: board kept in a dict {row: size}; menu "1 - Human vs Human" / "2 - Human vs Computer" /
# "3 - Computer vs Computer", "Enter 1, 2 or 3: "; names only for humans; "Do you want to go
# first? (y/n) ". Board asked row by row, drawn "Heap 1: * * *"; moves "row, elements"; winner
# "Ada wins". Python 2 flavour: % formatting, string concatenation.
from __future__ import print_function, division

import random

try:
    input = raw_input
except NameError:
    pass


def draw(heaps):
    for row in sorted(heaps):
        print("Heap %d: %s" % (row, " ".join("*" * heaps[row])))


def total(heaps):
    return sum(heaps.values())


def computer_choice(heaps):
    x = 0
    for row in heaps:
        x = x ^ heaps[row]
    if x != 0:
        for row in sorted(heaps):
            if heaps[row] ^ x < heaps[row]:
                return row, heaps[row] - (heaps[row] ^ x)
    row = random.choice(sorted(r for r in heaps if heaps[r] > 0))
    return row, random.randint(1, heaps[row])


def human_choice(name, heaps):
    while True:
        answer = input(name + ", choose a row and how many to take (row, elements): ")
        try:
            row_text, count_text = answer.split(",")
            row = int(row_text)
            count = int(count_text)
        except ValueError:
            print("Write it like this: 2, 3")
            continue
        if row not in heaps:
            print("Heap %d does not exist!" % row)
        elif count <= 0:
            print("You have to take something.")
        elif count > heaps[row]:
            print("Heap %d has only %d left." % (row, heaps[row]))
        else:
            return row, count


def read_count(prompt, smallest):
    while True:
        text = input(prompt)
        if text.strip().isdigit() and int(text) >= smallest:
            return int(text)
        print("Please enter a whole number of at least %d." % smallest)


print("1 - Human vs Human")
print("2 - Human vs Computer")
print("3 - Computer vs Computer")
mode = input("Enter 1, 2 or 3: ").strip()
while mode != "1" and mode != "2" and mode != "3":
    mode = input("Enter 1, 2 or 3: ").strip()

if mode == "1":
    names = [input("Enter name for player 1: "), input("Enter name for player 2: ")]
    computer = [False, False]
elif mode == "2":
    you = input("Enter name for player 1: ")
    go_first = input("Do you want to go first? (y/n) ").strip().lower()
    while go_first not in ("y", "n"):
        go_first = input("Please answer y or n: ").strip().lower()
    if go_first == "y":
        names = [you, "Computer"]
        computer = [False, True]
    else:
        names = ["Computer", you]
        computer = [True, False]
else:
    names = ["Computer 1", "Computer 2"]
    computer = [True, True]

heaps = {}
number_of_rows = read_count("How many rows? ", 1)
for r in range(1, number_of_rows + 1):
    heaps[r] = read_count("How many elements in row %d? " % r, 0)
if total(heaps) == 0:
    heaps[1] = 1

draw(heaps)
player = 0
while total(heaps) > 0:
    if computer[player]:
        row, count = computer_choice(heaps)
        print(names[player] + " takes " + str(count) + " from heap " + str(row))
    else:
        row, count = human_choice(names[player], heaps)
    heaps[row] = heaps[row] - count
    draw(heaps)
    if total(heaps) == 0:
        print(names[player] + " wins")
    player = 1 - player
