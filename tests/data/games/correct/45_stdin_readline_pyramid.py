# Style: no input() at all: prompts written with sys.stdout.write (then flushed) and answers read with
# sys.stdin.readline(); one-line mode prompt "Mode [1 = two players, 2 = against the computer, 3 = demo]: "; names "Name
# of player 1: " for humans, the human starts against "The computer"; board fixed 2 4 6 drawn as a centred pyramid of
# sticks with the row number on the left; one line "Ada, row and amount: "; winner "Game over! The winner is Ada.".
from __future__ import print_function, division

import sys


def ask(prompt):
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        print()
        print("No more input, bye.")
        sys.exit(0)
    return line.strip()


def pyramid(rows):
    widest = max(rows) if rows else 0
    sys.stdout.write("\n")
    for i, n in enumerate(rows):
        sticks = " ".join(["|"] * n)
        pad = " " * (widest - n)
        sys.stdout.write("%d   %s%s\n" % (i + 1, pad, sticks))
    sys.stdout.write("\n")


def best(rows):
    x = 0
    for n in rows:
        x ^= n
    if x:
        for i, n in enumerate(rows):
            if n ^ x < n:
                return i, n - (n ^ x)
    for i, n in enumerate(rows):
        if n:
            return i, 1


def human(name, rows):
    while True:
        parts = ask("%s, row and amount: " % name).replace(",", " ").split()
        try:
            r, a = int(parts[0]), int(parts[1])
            if len(parts) != 2:
                raise ValueError
        except (ValueError, IndexError):
            sys.stdout.write("Type two numbers: the row and the amount.\n")
            continue
        if not 1 <= r <= len(rows):
            sys.stdout.write("Rows go from 1 to %d.\n" % len(rows))
        elif not 1 <= a <= rows[r - 1]:
            sys.stdout.write("You can take between 1 and %d from row %d.\n" % (rows[r - 1], r))
        else:
            return r - 1, a


mode = ask("Mode [1 = two players, 2 = against the computer, 3 = demo]: ")
while mode not in ("1", "2", "3"):
    mode = ask("Mode must be 1, 2 or 3: ")
if mode == "1":
    seats = [(ask("Name of player 1: "), True), (ask("Name of player 2: "), True)]
elif mode == "2":
    seats = [(ask("Name of player 1: "), True), ("The computer", False)]
else:
    seats = [("Computer A", False), ("Computer B", False)]

rows = [2, 4, 6]
turn = 0
pyramid(rows)
while sum(rows) > 0:
    name, is_human = seats[turn]
    if is_human:
        r, a = human(name, rows)
    else:
        r, a = best(rows)
        sys.stdout.write("%s takes %d from row %d.\n" % (name, a, r + 1))
    rows[r] -= a
    pyramid(rows)
    if sum(rows) == 0:
        sys.stdout.write("Game over! The winner is %s.\n" % name)
    turn = 1 - turn
