# -*- coding: utf-8 -*-
"""Exercise 3, exclusive_or: the XOR of two bits, built from if statements.

Read the statement with `nimlab show exclusive_or`, then check your work with
`nimlab check exclusive_or.py`.
"""
from __future__ import print_function, division
import sys


def exclusive_or(a, b):
    """Return 1 if exactly one of the bits a and b is 1, otherwise 0."""
    # XOR is just OR without the case where both bits are set.
    # "a or b"  is true when at least one bit is 1,
    # "a and b" is true when both bits are 1.
    print("DEBUG a, b:", a, b, file=sys.stderr)
    # print("a or b ->", a or b)
    # print("a and b ->", a and b)
    if (a or b) and not (a and b):
        # at least one is 1 but not both -> exactly one is 1
        print("DEBUG returning 1", file=sys.stderr)
        return 1
    # either none of them is 1, or both are
    print("DEBUG returning 0", file=sys.stderr)
    return 0


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(exclusive_or(a, b))
