# -*- coding: utf-8 -*-
from __future__ import print_function, division


def exclusive_or(a, b):
    if a:
        if b:
            return 0
        else:
            return 1
    else:
        return 0


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(exclusive_or(a, b))
