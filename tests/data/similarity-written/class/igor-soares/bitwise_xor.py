# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division


def bitwise_exclusive_or(a, b):

    s1 = bin(a)[2:]
    s2 = bin(b)[2:]

    n = max(len(s1), len(s2))

    s1 = s1.rjust(n, "0")
    s2 = s2.rjust(n, "0")


    out = ""
    for i in range(n):
        if s1[i] != s2[i]:
            out += "1"
        else:
            out += "0"

    return int(out, 2)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
