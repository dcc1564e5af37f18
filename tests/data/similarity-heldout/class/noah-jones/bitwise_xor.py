# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division


def bitwise_exclusive_or(a, b):
    """Return the bitwise exclusive or of the whole numbers a and b (0 or more)."""
    sa = bin(a)[2:]
    bb = bin(b)[2:]
    while len(sa) < len(bb):
        sa = '0' + sa
    while len(bb) < len(sa):
        bb = '0' + bb
    soma = ''
    for idx in range(len(sa)):
        if sa[idx] != bb[idx]:
            soma += '1'
        else:
            soma += '0'
    return int(soma, 2)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
