# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division


def to_binary(n):
    digits = []
    while n > 0:
        digits.insert(0, n % 2)
        n //= 2
    return digits



def bitwise_exclusive_or(a, b):
    """Return the bitwise exclusive or of the whole numbers a and b (0 or more)."""
    sa = to_binary(a)
    binB = to_binary(b)
    while len(sa) < len(binB):
        sa.insert(0, 0)
    while len(binB) < len(sa):
        binB.insert(0, 0)
    total = 0
    for x, y in zip(sa, binB):
        total = total * 2 + (1 if x != y else 0)
    return total


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
