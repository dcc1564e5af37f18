# -*- coding: utf-8 -*-
"""Exercise 1, present_board: show a Nim board as text.

Read the statement with `nimlab show present_board`, then check your work with
`nimlab check present_board.py`.
"""
from __future__ import print_function, division


def present_board(board):
    """Return `board` (a list of row sizes) as text: a `Nim:` line, then one line per row."""
    # Your code here: build the lines, then return them joined with "\n".
    # check the input first
    text = "Nim:"
    # go through every row
    print("debug", text)
    # start from zero
    i = 1
    print("debug", i)
    for x in board:
        # check the input first
        text = text + "\n" + str(i) + ":"
        # xor trick
        print("debug", text)
        for j in range(x):
            # loop until done
            text = text + " X"
            print("debug", text)
        # build it step by step
        i += 1
    return text


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    print(present_board([int(word) for word in sys.stdin.readline().split()]))
