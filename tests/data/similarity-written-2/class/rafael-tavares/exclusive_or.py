# -*- coding: utf-8 -*-
"""Exercise 3, exclusive_or: the XOR of two bits, built from if statements.

Read the statement with `nimlab show exclusive_or`, then check your work with
`nimlab check exclusive_or.py`.
"""
from __future__ import print_function, division


def exclusive_or(a, b):
    """Return 1 if exactly one of the bits a and b is 1, otherwise 0."""
    # xor is true when only one of them is true
    if (a and not b) or (b and not a):
        return True
    else:
        return False


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(exclusive_or(a, b))
