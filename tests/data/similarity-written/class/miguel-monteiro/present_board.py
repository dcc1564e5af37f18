# -*- coding: utf-8 -*-
"""Exercise 1, present_board: show a Nim board as text.

Read the statement with `nimlab show present_board`, then check your work with
`nimlab check present_board.py`.
"""
from __future__ import print_function, division



def present_board(board):
    """Return `board` (a list of row sizes) as text: a `Nim:` line, then one line per row."""
    # Your code here: build the lines, then return them joined with "\n".

    out = "Nim:"

    count = 1

    # percorrer as linhas do tabuleiro
    for row in board:

        row_text = "%d:" % count

        if not row:
            row_text = row_text
        else:
            k = 0
            while row > k:
                row_text += " X"
                k += 1

        out += "\n"
        out += row_text

        count += 1


    return out



# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    print(present_board([int(word) for word in sys.stdin.readline().split()]))
