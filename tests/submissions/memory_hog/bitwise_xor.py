# -*- coding: utf-8 -*-
from __future__ import print_function, division


def bitwise_exclusive_or(a, b):
    table = []
    while True:
        table.append([0] * 1000000)


if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.read().split()]
    print(bitwise_exclusive_or(a, b))
