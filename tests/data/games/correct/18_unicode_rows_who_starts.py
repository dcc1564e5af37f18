# -*- coding: utf-8 -*-
# Style: modes listed in one line ("1 = human vs human, ...") then "Mode (1-3)? "; who starts
# asked as "(1 = you, 2 = computer)"; board typed with commas; drawn with a Unicode symbol
# ("Row 1: \u25cf\u25cf\u25cf"); moves "row number" on one line; the winner "Player 1 wins!".
from __future__ import print_function
import sys
try:
    input = raw_input
except NameError:
    pass

def best(b):
    x = 0
    for v in b:
        x ^= v
    for i, v in enumerate(b):
        if x and v ^ x < v:
            return i, v - (v ^ x)
    i = [k for k, v in enumerate(b) if v][-1]
    return i, 1

def show(b):
    for i, v in enumerate(b):
        print(u"Row {}: {}".format(i + 1, u"\u25cf" * v).encode("utf-8").decode("utf-8") if sys.version_info[0] > 2 else (u"Row %d: %s" % (i + 1, u"\u25cf" * v)).encode("utf-8"))

print("Modes: 1 = human vs human, 2 = human vs computer, 3 = computer vs computer")
mode = input("Mode (1-3)? ")
while mode not in ("1", "2", "3"):
    mode = input("Mode (1-3)? ")
kinds = {"1": "hh", "2": "hc", "3": "cc"}[mode]
if kinds == "hc":
    s = input("Who starts? (1 = you, 2 = computer) ")
    if s == "2":
        kinds = "ch"
sizes = input("Board sizes, comma separated: ")
b = [int(x) for x in sizes.replace(" ", "").split(",")]
t = 0
show(b)
while sum(b):
    if kinds[t] == "c":
        r, n = best(b)
        print("The computer removes {} from row {}.".format(n, r + 1))
    else:
        try:
            r, n = [int(x) for x in input("Enter row and number to remove, e.g. 2 3: ").split()]
        except ValueError:
            print("Please enter two numbers.")
            continue
        r -= 1
        if not (0 <= r < len(b)) or not (1 <= n <= b[r]):
            print("That is not allowed.")
            continue
    b[r] -= n
    show(b)
    t = 1 - t
print("Player {} wins!".format(2 - t))
