# -*- coding: utf-8 -*-
"""Exercise 1, present_board: show a Nim board as text.

Read the statement with `nimlab show present_board`, then check your work with
`nimlab check present_board.py`.
"""
from __future__ import print_function, division


def make_row(number, size):
    # builds one line, like "2: X X X"
    row = str(number) + ":"
    for i in range(size):
        row = row + " X"
    return row


def present_board(board):
    """Return `board` (a list of row sizes) as text: a `Nim:` line, then one line per row."""
    lines = ["Nim:"]
    number = 1
    for size in board:
        lines.append(make_row(number, size))
        number = number + 1
    return "\n".join(lines)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    print(present_board([int(word) for word in sys.stdin.readline().split()]))
