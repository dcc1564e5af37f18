# -*- coding: utf-8 -*-
from __future__ import print_function, division


def exclusive_or(a, b):
    while True:
        a = (a + b) % 2
    return a


if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.read().split()]
    print(exclusive_or(a, b))
