# -*- coding: utf-8 -*-
# Mistake: a human may not take a whole row ("You can't take the whole row."), refused in
# the same words as an illegal move. Otherwise correct-game 20 (refusals with apostrophes).
# expect: legal_accepted
from __future__ import print_function, division

import sys

try:
    input = raw_input
except NameError:
    pass


def say(text):
    if sys.version_info[0] > 2:
        print(text)
    else:
        print(text.encode("utf-8"))


def computer_move(rows):
    total = 0
    for size in rows:
        total ^= size
    if total:
        for index, size in enumerate(rows):
            if size ^ total < size:
                return index + 1, size - (size ^ total)
    # A lost position: one from the largest row, to last as long as possible.
    return rows.index(max(rows)) + 1, 1


def human_move(name, rows):
    while True:
        words = input("{}, your move: ".format(name)).split()
        if len(words) != 2 or not all(word.isdigit() for word in words):
            say(u"That isn\u2019t a move I understand: the row, a space, and how many.")
            continue
        row, take = int(words[0]), int(words[1])
        if not 1 <= row <= len(rows):
            say(u"Row {} doesn't exist.".format(row))
        elif rows[row - 1] == 0:
            say(u"Row {} is empty, you can't take from it.".format(row))
        elif take < 1:
            say(u"That isn't a move: take at least one.")
        elif take == rows[row - 1]:
            say(u"You can't take the whole row.")
        elif take > rows[row - 1]:
            say(u"You can't take {} from row {}, it has {}.".format(take, row, rows[row - 1]))
        else:
            return row, take


def read_rows():
    while True:
        words = input("Sizes of the rows: ").split()
        if words and all(word.isdigit() for word in words) and any(int(w) for w in words):
            return [int(word) for word in words]
        say(u"That isn't a board: whole numbers, at least one above 0.")


def main():
    say(u"Nim")
    say(u"1. Two players")
    say(u"2. Against the computer")
    say(u"3. Computer against computer")
    choice = input("Your choice: ").strip()
    while choice not in ("1", "2", "3"):
        choice = input("Your choice: ").strip()
    if choice == "1":
        players = [(input("First player's name: "), False), (input("Second player's name: "), False)]
    elif choice == "2":
        players = [(input("Your name: "), False), ("The computer", True)]
    else:
        players = [("Computer A", True), ("Computer B", True)]
    rows = read_rows()
    turn = 0
    while True:
        name, computer = players[turn]
        if computer:
            row, take = computer_move(rows)
            say(u"{} takes {} from row {}.".format(name, take, row))
        else:
            row, take = human_move(name, rows)
        rows[row - 1] -= take
        if sum(rows) == 0:
            say(u"{} wins!".format(name))
            return
        turn = 1 - turn


main()
