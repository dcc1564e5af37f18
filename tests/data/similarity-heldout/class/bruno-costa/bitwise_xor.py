# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division


def binario(n):
    digits = []
    while n > 0:
        digits.insert(0, n % 2)
        n //= 2
    return digits



def bitwise_exclusive_or(a, b):
    """Return the bitwise exclusive or of the whole numbers a and b (0 or more)."""
    # Your code here.
    sa = binario(a)
    str_b = binario(b)
    # same length for both
    while len(sa) < len(str_b):
        sa.insert(0, 0)
    while len(str_b) < len(sa):
        str_b.insert(0, 0)
    suma = 0
    for x, y in zip(sa, str_b):
        suma = suma * 2 + (1 if x != y else 0)
    return suma


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
