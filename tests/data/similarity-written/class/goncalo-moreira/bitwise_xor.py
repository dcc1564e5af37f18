# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division


def bitwise_exclusive_or(a, b):
    """Return the bitwise exclusive or of the whole numbers a and b (0 or more)."""
    total = 0
    value = 1
    # loop until both numbers are 0
    while a != 0 or b != 0:
        last_a = a % 2
        last_b = b % 2
        # xor is 1 when only one of them is 1
        if last_a + last_b == 1:
            total = total + value
        a = a // 2
        b = b // 2
        # next power of 2
        value = value * 2
    return total


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
