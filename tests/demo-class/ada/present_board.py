# -*- coding: utf-8 -*-
"""Model solution for exercise 1, present_board."""
from __future__ import print_function, division


def present_board(board):
    """Print `board` (a list of row sizes): a `Nim:` line, then one line per row."""
    print("Nim:")
    for number, size in enumerate(board, 1):
        print(str(number) + ":" + " X" * size)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    present_board([int(word) for word in sys.stdin.read().split()])
