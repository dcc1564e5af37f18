# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division


def bitwise_exclusive_or(a, b):
    """Return the bitwise exclusive or of the whole numbers a and b (0 or more)."""
    result = 0
    shift = 0
    while a > 0 or b > 0:
        bit_a = a & 1
        bit_b = b & 1
        # exactly one of the two bits is set
        if bit_a != bit_b:
            result = result | (1 << shift)
        a = a >> 1
        b = b >> 1
        shift += 1
    return result


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
