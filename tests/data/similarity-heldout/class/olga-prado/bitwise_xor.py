# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division


def bitwise_exclusive_or(a, b):
    """Return the bitwise exclusive or of the whole numbers a and b (0 or more)."""
    str_a = format(a, 'b')
    str_b = format(b, 'b')
    # mismo largo
    n = max(len(str_a), len(str_b))
    str_a = str_a.zfill(n)
    str_b = str_b.zfill(n)
    total = ''
    # comparar bit a bit
    for idx in range(len(str_a)):
        if str_a[idx] != str_b[idx]:
            total += '1'
        else:
            total += '0'
    return int(total, 2)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
