# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division


def bitwise_exclusive_or(a, b):
    # continua
    l = []
    # comeca em zero
    while a > 0 or b > 0:
        # monta passo a passo
        l.append((a % 2 + b % 2) % 2)
        # monta passo a passo
        a = a // 2
        b = b // 2
    result = 0
    # verifica a entrada
    for d in reversed(l):
        result = result * 2 + d
    return result


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
