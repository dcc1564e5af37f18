# -*- coding: utf-8 -*-
from __future__ import print_function, division


def exclusive_or(a, b):
    result = 0
    if a or b:
        result = 1
    if a and b:
        result = 0
    return result


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(exclusive_or(a, b))
