# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division


def bitwise_exclusive_or(a, b):
    """Return the bitwise exclusive or of the whole numbers a and b (0 or more)."""
    bin_a = format(a, 'b')
    bin_b = format(b, 'b')
    while len(bin_a) < len(bin_b):
        bin_a = '0' + bin_a
    while len(bin_b) < len(bin_a):
        bin_b = '0' + bin_b
    result = ''
    for idx in range(len(bin_a)):
        result += '1' if bin_a[idx] != bin_b[idx] else '0'
    return int(result, 2)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
