# -*- coding: utf-8 -*-
"""Exercise 1, present_board: show a Nim board as text.

Read the statement with `nimlab show present_board`, then check your work with
`nimlab check present_board.py`.
"""
from __future__ import print_function, division
import sys


def present_board(board):
    lines=["Nim:"]
    sys.stderr.write("rows: %d\n"%len(board))
    # one line per row, numbered from 1
    for row_num,size in enumerate(board,1):
        #print(row_num, size)
        lines.append(str(row_num)+":"+" X"*size)
    # join with line breaks
    sys.stderr.write("last line: %s\n"%lines[-1])
    return "\n".join(lines)

# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    print(present_board([int(word) for word in sys.stdin.readline().split()]))
