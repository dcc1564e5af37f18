# -*- coding: utf-8 -*-
"""Exercise 1, present_board: show a Nim board as text.

Read the statement with `nimlab show present_board`, then check your work with
`nimlab check present_board.py`.
"""
from __future__ import print_function, division



def _fila(num, cantidad):

    return "%d:%s" % (num, " X" * cantidad)




def present_board(board):
    return "\n".join(["Nim:"] + [_fila(i, c) for i, c in enumerate(board, 1)])



# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    print(present_board([int(word) for word in sys.stdin.readline().split()]))
