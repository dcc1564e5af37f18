# -*- coding: utf-8 -*-
"""Exercise 1, present_board: show a Nim board as text.

Read the statement with `nimlab show present_board`, then check your work with
`nimlab check present_board.py`.
"""
from __future__ import print_function, division


def present_board(board):
    """Return `board` (a list of row sizes) as text: a `Nim:` line, then one line per row."""
    board_text = "Nim:"
    row_number = 0
    newline = "\n"
    # go through every row
    for row in board:
        row_number = row_number + 1
        xs = " X" * row
        line = newline + str(row_number) + ":" + xs
        board_text = board_text + line
    return board_text


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    print(present_board([int(word) for word in sys.stdin.readline().split()]))
