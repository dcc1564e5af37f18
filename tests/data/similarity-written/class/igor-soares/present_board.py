# -*- coding: utf-8 -*-
"""Exercise 1, present_board: show a Nim board as text.

Read the statement with `nimlab show present_board`, then check your work with
`nimlab check present_board.py`.
"""
from __future__ import print_function, division
import sys

sys.setrecursionlimit(20000)



def add_rows(board, i, lines):

    if i == len(board):
        return lines

    lines.append(str(i + 1) + ":" + " X" * board[i])

    return add_rows(board, i + 1, lines)




def present_board(board):

    return "\n".join(add_rows(board, 0, ["Nim:"]))



# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    print(present_board([int(word) for word in sys.stdin.readline().split()]))
