# -*- coding: utf-8 -*-
"""Exercise 1, present_board: show a Nim board as text.

Read the statement with `nimlab show present_board`, then check your work with
`nimlab check present_board.py`.
"""
from __future__ import print_function, division


def present_board(board):
    # Start the list of lines with the title line.
    lines = ["Nim:"]
    # Index of the row we are looking at (0 is the first row).
    i = 0
    # Go through every row of the board.
    while i < len(board):
        # Row numbers start at 1, so add one to the index.
        line = str(i + 1) + ":"
        # Now add one " X" for each element in this row.
        j = 0
        while j < board[i]:
            line = line + " X"
            j = j + 1
        # The row is finished, keep it in the list.
        lines.append(line)
        # Move on to the next row.
        i = i + 1
    # Put the lines together with a line break between them.
    return "\n".join(lines)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    print(present_board([int(word) for word in sys.stdin.readline().split()]))
