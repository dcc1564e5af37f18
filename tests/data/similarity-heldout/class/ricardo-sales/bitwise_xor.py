# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division


def bitwise_exclusive_or(a, b):
    """Return the bitwise exclusive or of the whole numbers a and b (0 or more)."""
    bin_a = format(a, 'b')
    str_b = format(b, 'b')
    # same length for both
    n = max(len(bin_a), len(str_b))
    bin_a = bin_a.zfill(n)
    str_b = str_b.zfill(n)
    x = ''
    # compare the bits one by one
    for k in range(len(bin_a)):
        if bin_a[k] != str_b[k]:
            x += '1'
        else:
            x += '0'
    return int(x, 2)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
