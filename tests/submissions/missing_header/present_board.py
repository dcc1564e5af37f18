# -*- coding: utf-8 -*-
from __future__ import print_function, division


def present_board(board):
    text = ""
    for number in range(len(board)):
        text += str(number + 1) + ":" + " X" * board[number] + "\n"
    return text.rstrip("\n")


if __name__ == "__main__":
    import sys

    print(present_board([int(word) for word in sys.stdin.readline().split()]))
