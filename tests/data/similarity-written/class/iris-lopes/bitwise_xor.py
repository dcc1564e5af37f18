# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division
import sys


def bitwise_exclusive_or(a, b):
    result = 0
    bit_value = 1
    while a > 0 or b > 0:
        # print(a % 2, b % 2)
        if a % 2 != b % 2:
            result += bit_value
        print("a =", a, "b =", b, "result =", result, file=sys.stderr)
        a //= 2
        b //= 2
        bit_value *= 2
    # print("bit_value", bit_value)
    print("final:", result, file=sys.stderr)
    return result


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
