# -*- coding: utf-8 -*-
"""Exercise 1, present_board: show a Nim board as text.

Read the statement with `nimlab show present_board`, then check your work with
`nimlab check present_board.py`.
"""
from __future__ import print_function, division


def present_board(board):
    lines = ['Nim:']
    for row_number, row in enumerate(board, 1):
        # e.g. row 2 with 3 elements -> "2: X X X"
        line = str(row_number) + ':' + ' X' * row
        lines.append(line)
    return '\n'.join(lines)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    print(present_board([int(word) for word in sys.stdin.readline().split()]))
