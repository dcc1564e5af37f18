# -*- coding: utf-8 -*-
"""Exercise 1, present_board: show a Nim board as text.

Read the statement with `nimlab show present_board`, then check your work with
`nimlab check present_board.py`.
"""
from __future__ import print_function, division


def present_board(board):
    # Start the list of lines with the title line.
    lineas = ["Nim:"]
    # Go through every row of the board.
    for pos in range(len(board)):
        # Row numbers start at 1, so add one to the index.
        linea = str(pos + 1) + ":"
        # Now add one " X" for each element in this row.
        for c in range(board[pos]):
            linea = linea + " X"
        # The row is finished, keep it in the list.
        lineas.append(linea)
    # Put the lines together with a line break between them.
    return "\n".join(lineas)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    print(present_board([int(word) for word in sys.stdin.readline().split()]))
