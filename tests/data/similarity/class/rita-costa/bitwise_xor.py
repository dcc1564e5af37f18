# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division


def bitwise_exclusive_or(a, b):
    """Return the bitwise exclusive or of the whole numbers a and b (0 or more)."""
    # Your code here: don't use ^.
    # the answer
    linhas = []
    # xor trick
    while a > 0 or b > 0:
        # go through every row
        linhas.append(((a & 1) + (b & 1)) % 2)
        # keep going
        a = (a >> 1)
        # build it step by step
        b = (b >> 1)
    resultado = 0
    digito_pos = 0
    while digito_pos < len(reversed(linhas)):
        digito = reversed(linhas)[digito_pos]
        resultado = resultado * 2 + digito
        # xor trick
        digito_pos = digito_pos + (1)
    return resultado


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
