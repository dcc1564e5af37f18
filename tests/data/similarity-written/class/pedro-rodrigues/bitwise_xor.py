# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division


def bitwise_exclusive_or(a, b):
    """Return the bitwise exclusive or of the whole numbers a and b (0 or more)."""
    # Your code here: don't use ^.
    result = 0
    power = 1
    # keep going until both numbers run out of digits
    while not (a == 0 and b == 0):
        # last digit of each number
        x = a & 1
        y = b & 1
        if not x == y:
            result += power
        # remove the last digit
        a >>= 1
        b >>= 1
        power += power
    return result


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
