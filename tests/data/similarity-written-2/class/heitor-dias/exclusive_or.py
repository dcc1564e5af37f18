# -*- coding: utf-8 -*-
"""Exercise 3, exclusive_or: the XOR of two bits, built from if statements.

Read the statement with `nimlab show exclusive_or`, then check your work with
`nimlab check exclusive_or.py`.
"""
from __future__ import print_function, division


def bit_not(x):
    # NOT: 1 -> 0 and 0 -> 1
    if x:
        return 0
    return 1


def bit_and(x,y):
    # AND: 1 only if both bits are set
    if x:
        if y:
            return 1
    return 0


def bit_or(x,y):
    # OR: 1 if at least one of the bits is set
    if x:
        return 1
    if y:
        return 1
    return 0


def exclusive_or(a, b):
    """Return 1 if exactly one of the bits a and b is 1, otherwise 0."""
    # XOR built from the three basic gates:
    #   a XOR b = (a OR b) AND NOT (a AND b)
    # i.e. at least one bit is set, but not both of them.
    return bit_and(bit_or(a,b),bit_not(bit_and(a,b)))


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(exclusive_or(a, b))
