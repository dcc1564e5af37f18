# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division


def bitwise_exclusive_or(a, b):
    """Return the bitwise exclusive or of the whole numbers a and b (0 or more)."""
    # Base case: when both numbers are 0 there are no digits left, and the
    # XOR of nothing is 0.
    if a == 0 and b == 0:
        return 0
    # The last binary digit of the result is 1 exactly when the last digits
    # of a and b differ.
    last_digit = (a % 2 + b % 2) % 2
    # The remaining digits are the XOR of a and b with their last digit
    # removed (integer division by 2), recursively.
    rest = bitwise_exclusive_or(a // 2, b // 2)
    # Put the rest one place to the left and add the last digit back.
    return 2 * rest + last_digit


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
