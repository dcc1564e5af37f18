# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division


def bitwise_exclusive_or(a, b):

    # binario sem o 0b do inicio
    bin_a = bin(a)[2:]
    bin_b = bin(b)[2:]

    tam = max(len(bin_a), len(bin_b))

    bin_a = bin_a.rjust(tam, "0")
    bin_b = bin_b.rjust(tam, "0")


    res = ""
    for k in range(tam):
        if bin_a[k] != bin_b[k]:
            res += "1"
        else:
            res += "0"

    # de volta para inteiro
    return int(res, 2)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
