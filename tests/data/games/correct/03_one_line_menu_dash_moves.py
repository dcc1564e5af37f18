# Style: one-line menu ("Type 1 for two players, 2 to play the computer, 3 to watch two
# computers: "), names only for humans, the computer is "CPU", "Do you want to go first? (y/n)".
# Board typed with commas; moves "row-elements" (3-2); boards "Heap 1: * * *"; the computer
# moves silently (only the board shows it); winner "Congratulations Ada, you won the game!".
from __future__ import print_function, division

import random

try:
    input = raw_input
except NameError:
    pass


def draw(heaps):
    print()
    for i in range(len(heaps)):
        print("Heap {0}: {1}".format(i + 1, " ".join(["*"] * heaps[i])))
    print()


def get_heaps():
    while True:
        text = input("Enter the row sizes separated by commas: ")
        try:
            heaps = [int(part) for part in text.split(",")]
        except ValueError:
            print("Only numbers and commas please, for example 5,4,3")
            continue
        if len(heaps) > 0 and all(h >= 0 for h in heaps) and sum(heaps) > 0:
            return heaps
        print("That is not a board we can play on.")


def get_move(name, heaps):
    while True:
        text = input("{0}, your move as row-elements (for example 3-2): ".format(name))
        pieces = text.strip().split("-")
        if len(pieces) != 2 or not pieces[0].strip().isdigit() or not pieces[1].strip().isdigit():
            print("Sorry, I did not understand that. Type the row, a dash and the number, like 3-2.")
            continue
        row, take = int(pieces[0]), int(pieces[1])
        if row < 1 or row > len(heaps):
            print("There are only {0} rows.".format(len(heaps)))
        elif take < 1:
            print("You must take at least one.")
        elif take > heaps[row - 1]:
            print("Row {0} does not have {1} elements.".format(row, take))
        else:
            return row, take


def cpu_move(heaps):
    x = 0
    for h in heaps:
        x ^= h
    for i, h in enumerate(heaps):
        if x != 0 and (h ^ x) < h:
            return i + 1, h - (h ^ x)
    i = random.choice([i for i, h in enumerate(heaps) if h > 0])
    return i + 1, random.randint(1, heaps[i])


def yes(question):
    while True:
        answer = input(question).strip().lower()
        if answer in ("y", "yes"):
            return True
        if answer in ("n", "no"):
            return False
        print("Please answer y or n.")


choice = ""
while choice not in ("1", "2", "3"):
    choice = input("Type 1 for two players, 2 to play the computer, 3 to watch two computers: ").strip()

if choice == "1":
    names = [input("Player 1 name: "), input("Player 2 name: ")]
    humans = [True, True]
elif choice == "2":
    me = input("Your name: ")
    if yes("Do you want to go first? (y/n) "):
        names, humans = [me, "CPU"], [True, False]
    else:
        names, humans = ["CPU", me], [False, True]
else:
    names, humans = ["CPU 1", "CPU 2"], [False, False]

heaps = get_heaps()
draw(heaps)
turn = 0
while sum(heaps) > 0:
    if humans[turn]:
        row, take = get_move(names[turn], heaps)
    else:
        row, take = cpu_move(heaps)
    heaps[row - 1] -= take
    draw(heaps)
    if sum(heaps) == 0:
        print("Congratulations {0}, you won the game!".format(names[turn]))
    turn = 1 - turn
