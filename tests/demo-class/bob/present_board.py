# -*- coding: utf-8 -*-
from __future__ import print_function, division


def present_board(board):
    print("DEBUG board =", board)
    print("Nim:")
    for number, size in enumerate(board, 1):
        print(str(number) + ":" + " X" * size)


if __name__ == "__main__":
    import sys

    present_board([int(word) for word in sys.stdin.read().split()])
