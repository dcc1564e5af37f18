# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division

try:
    from itertools import zip_longest
except ImportError:
    from itertools import izip_longest as zip_longest


def bitwise_exclusive_or(a, b):
    """Return the bitwise exclusive or of the whole numbers a and b (0 or more)."""
    # Your code here: don't use ^.
    invertido_a = bin(a)[:1:-1]
    invertido_b = bin(b)[:1:-1]
    total = 0
    for posicao, (x, y) in enumerate(zip_longest(invertido_a, invertido_b, fillvalue="0")):
        if x != y:
            total += 1 << posicao
    return total


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
