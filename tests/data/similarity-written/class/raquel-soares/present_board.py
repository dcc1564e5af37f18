# -*- coding: utf-8 -*-
"""Exercise 1, present_board: show a Nim board as text.

Read the statement with `nimlab show present_board`, then check your work with
`nimlab check present_board.py`.
"""
from __future__ import print_function, division


def present_board(board):
    linhas = ["Nim:"]
    # i começa em 0, por isso o número da linha é i + 1
    for i in range(len(board)):
        linha = str(i + 1) + ":"
        linha += " X" * board[i]
        linhas.append(linha)
    # print(linhas)
    return "\n".join(linhas)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    print(present_board([int(word) for word in sys.stdin.readline().split()]))
