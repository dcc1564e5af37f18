# Mistake: option [3] Computer vs Computer seats a human as player 2, so it plays
# human against computer. Otherwise correct-game 07 ([1]/[2]/[3] menu, Row 1: OOO).
# expect: modes
from __future__ import print_function, division

import random

try:
    input = raw_input
except NameError:
    pass


def show_board(rows):
    for i, n in enumerate(rows):
        print("Row {}: {}".format(i + 1, "O" * n))


def number(prompt):
    try:
        return int(input(prompt))
    except ValueError:
        return -1


def ask_move(rows):
    while True:
        r = number("Which row? ")
        if r < 1 or r > len(rows) or rows[r - 1] == 0:
            print("You can't take from that row. Pick a row that still has elements.")
            continue
        n = number("How many? ")
        if n < 1 or n > rows[r - 1]:
            print("Row {} has {} left, take between 1 and {}. Start again.".format(
                r, rows[r - 1], rows[r - 1]))
            continue
        return r, n


def smart_move(rows):
    x = 0
    for n in rows:
        x ^= n
    if x:
        for i, n in enumerate(rows):
            if n ^ x < n:
                return i + 1, n - (n ^ x)
    r = random.choice([i + 1 for i, n in enumerate(rows) if n])
    return r, random.randint(1, rows[r - 1])


def one_game():
    print("[1] Player vs Player")
    print("[2] Player vs Computer")
    print("[3] Computer vs Computer")
    mode = input("Choose a mode: ").strip()
    while mode not in ["1", "2", "3"]:
        mode = input("Please type 1, 2 or 3: ").strip()
    if mode == "1":
        players = [("Player 1", "human"), ("Player 2", "human")]
    elif mode == "2":
        first = input("Who goes first? 1) you 2) the computer ").strip()
        while first not in ["1", "2"]:
            first = input("Type 1 or 2: ").strip()
        if first == "1":
            players = [("You", "human"), ("Computer", "computer")]
        else:
            players = [("Computer", "computer"), ("You", "human")]
    else:
        players = [("Computer 1", "computer"), ("Player 2", "human")]

    rows = [1, 3, 5, 7]
    turn = 0
    show_board(rows)
    while sum(rows) > 0:
        name, kind = players[turn]
        if kind == "human":
            if name == "You":
                print("Your turn.")
            else:
                print("{}, it's your turn.".format(name))
            r, n = ask_move(rows)
        else:
            r, n = smart_move(rows)
            print("{} takes {} from row {}.".format(name, n, r))
        rows[r - 1] -= n
        show_board(rows)
        if sum(rows) == 0:
            if mode == "2" and name == "You":
                print("You win!")
            elif mode == "2":
                print("You lost! The computer wins.")
            else:
                print("{} wins!".format(name))
        turn = 1 - turn


while True:
    one_game()
    again = input("Play again? (y/n) ").strip().lower()
    if again != "y":
        print("Bye!")
        break
