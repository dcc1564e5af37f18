# -*- coding: utf-8 -*-
"""Exercise 1, present_board: show a Nim board as text.

Read the statement with `nimlab show present_board`, then check your work with
`nimlab check present_board.py`.
"""
from __future__ import print_function, division


def present_board(board):
    # The first line of the output is always the title.
    lines = ["Nim:"]
    # Go over the rows, numbering them from 1 (enumerate starts at 0 by default).
    for number, size in enumerate(board, 1):
        # Row number, a colon, then " X" repeated once per element.
        # An empty row gives "" here, so the line is just e.g. "3:".
        lines.append(str(number) + ":" + " X" * size)
    # Join with line breaks; no newline at the end because print adds one.
    return "\n".join(lines)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    print(present_board([int(word) for word in sys.stdin.readline().split()]))
