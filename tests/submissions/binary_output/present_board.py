# -*- coding: utf-8 -*-
from __future__ import print_function, division

import sys


def present_board(board):
    out = getattr(sys.stdout, "buffer", sys.stdout)
    out.write(b"Nim:\xff\xfe\n")
    out.flush()


if __name__ == "__main__":
    present_board([int(word) for word in sys.stdin.read().split()])
