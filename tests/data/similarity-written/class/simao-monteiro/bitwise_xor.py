# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division


def bitwise_exclusive_or(a, b):
    """Return the bitwise exclusive or of the whole numbers a and b (0 or more)."""

    x = format(a, "b")
    y = format(b, "b")

    # same length, zeros on the left
    size = max(len(x), len(y))
    x = x.zfill(size)

    y = y.zfill(size)


    digits = []
    for i in range(size):
        digits.append("0" if x[i] == y[i] else "1")

    # back to a number
    return int("".join(digits), 2)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
