# -*- coding: utf-8 -*-
"""Exercise 1, present_board: show a Nim board as text.

Read the statement with `nimlab show present_board`, then check your work with
`nimlab check present_board.py`.
"""
from __future__ import print_function, division


def present_board(board):
    """Return `board` (a list of row sizes) as text: a `Nim:` line, then one line per row."""
    # list where I keep every line of the text
    lines = []
    # the first line is always "Nim:"
    lines.append("Nim:")
    # go through the rows using their index
    for i in range(len(board)):
        # the number shown to the players starts at 1, not 0
        row_number = i + 1
        # start the line with the number and the colon
        line = str(row_number) + ":"
        # add one " X" for every element in this row
        for x in range(board[i]):
            line = line + " X"
        # the line is finished, put it in the list
        lines.append(line)
    # put the lines together with a line break between them
    return "\n".join(lines)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    print(present_board([int(word) for word in sys.stdin.readline().split()]))
