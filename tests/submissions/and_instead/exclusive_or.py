# -*- coding: utf-8 -*-
from __future__ import print_function, division


def exclusive_or(a, b):
    if a and b:
        return 1
    return 0


if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(exclusive_or(a, b))
