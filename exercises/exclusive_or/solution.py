# -*- coding: utf-8 -*-
"""Model solution for exercise 3, exclusive_or."""
from __future__ import print_function, division


def exclusive_or(a, b):
    """Return 1 if exactly one of the bits a and b is 1, otherwise 0."""
    if a:
        if b:
            return 0
        return 1
    if b:
        return 1
    return 0


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(exclusive_or(a, b))
