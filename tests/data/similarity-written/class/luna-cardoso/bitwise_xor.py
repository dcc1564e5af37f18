# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division


def bitwise_exclusive_or(a, b):
    """Return the bitwise exclusive or of the whole numbers a and b (0 or more)."""
    soma = 0
    peso = 1
    # loop until both numbers are 0
    while not (a == 0 and b == 0):
        ult_a = a & 1
        ult_b = b & 1
        # xor is 1 when only one of them is 1
        if 1 == ult_a + ult_b:
            soma += peso
        a >>= 1
        b >>= 1
        # next power of 2
        peso *= 2
    return soma


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
