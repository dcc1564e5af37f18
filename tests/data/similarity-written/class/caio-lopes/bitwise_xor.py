# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division


def bitwise_exclusive_or(a, b):
    width = max(a.bit_length(), b.bit_length(), 1)
    bits_a = format(a, "0{}b".format(width))
    bits_b = format(b, "0{}b".format(width))
    result = ""
    for x, y in zip(bits_a, bits_b):
        if x == y:
            result += "0"
        else:
            result += "1"
    return int(result, 2)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
