# -*- coding: utf-8 -*-
from __future__ import print_function, division


def present_board(board):
    lines = ["Nim:"]
    for number, size in enumerate(board, 1):
        lines.append(str(number) + ":" + " X" * size)
    return lines


if __name__ == "__main__":
    import sys

    print(present_board([int(word) for word in sys.stdin.readline().split()]))
