# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division


def bitwise_exclusive_or(a, b):
    """Return the bitwise exclusive or of the whole numbers a and b (0 or more)."""
    # The result is built one binary digit at a time, starting from the
    # least significant digit (the one on the right).
    result = 0
    # Value of the digit we are looking at right now: 1, 2, 4, 8, ...
    place = 1
    # Keep going while either number still has digits left. When the shorter
    # number reaches 0 it just gives zeros, which is the padding we need.
    while a > 0 or b > 0:
        # The last binary digit of a number is its remainder when divided by 2.
        # The XOR of two digits is 1 exactly when the two digits are different.
        if a % 2 != b % 2:
            result += place
        # Throw away the last digit of both numbers.
        a //= 2
        b //= 2
        # The next digit is worth twice as much as this one.
        place *= 2
    # Every digit has been combined.
    return result


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
