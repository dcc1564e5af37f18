# -*- coding: utf-8 -*-
"""A student's exclusive_or that reads its case with input(): fine on Python 3, but on
Python 2 input() runs the line it reads as Python code."""
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
    a, b = [int(word) for word in input().split()]
    print(exclusive_or(a, b))
