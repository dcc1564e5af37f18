# -*- coding: utf-8 -*-
"""Model solution for exercise 1, present_board."""
from __future__ import print_function, division


def present_board(board):
    """Return `board` (a list of row sizes) as text: a `Nim:` line, then one line per row."""
    lines = ["Nim:"]
    for number, size in enumerate(board, 1):
        lines.append(str(number) + ":" + " X" * size)
    return "\n".join(lines)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    print(present_board([int(word) for word in sys.stdin.readline().split()]))
