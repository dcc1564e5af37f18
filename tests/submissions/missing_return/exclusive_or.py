# -*- coding: utf-8 -*-
from __future__ import print_function, division


def exclusive_or(a, b):
    if a:
        if not b:
            return 1
    if b:
        if not a:
            return 1


if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(exclusive_or(a, b))
