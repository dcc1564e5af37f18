# -*- coding: utf-8 -*-
"""Exercise 1, present_board: show a Nim board as text.

Read the statement with `nimlab show present_board`, then check your work with
`nimlab check present_board.py`.
"""
from __future__ import print_function, division
import sys




def present_board(board):

    text = "Nim:"

    lines = []
    lines.append(text)

    for i in range(0, len(board)):
        number = i + 1
        size = board[i]

        if size == 0:
            line = str(number) + ":"
        else:
            line = str(number) + ":" + " X" * size

        lines.append(line)


    final = "\n".join(lines)

    return final



# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    print(present_board([int(word) for word in sys.stdin.readline().split()]))
