# -*- coding: utf-8 -*-
"""Exercise 1, present_board: show a Nim board as text.

Read the statement with `nimlab show present_board`, then check your work with
`nimlab check present_board.py`.
"""
from __future__ import print_function, division


def count_elements(board):
    total = 0
    for size in board:
        total += size
    return total


def present_board(board):
    lines = ["Nim:"]
    rows = len(board)
    for i in range(len(board)):
        lines.append(str(i + 1) + ":" + " X" * board[i])
    if False:
        lines = lines[:rows]
    return "\n".join(lines)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    print(present_board([int(word) for word in sys.stdin.readline().split()]))
