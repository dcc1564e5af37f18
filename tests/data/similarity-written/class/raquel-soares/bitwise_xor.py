# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division


def bitwise_exclusive_or(a, b):
    resultado = 0
    i = 0
    # percorre os bits da direita para a esquerda
    while a > 0 or b > 0:
        bit_a = a % 2
        bit_b = b % 2
        if bit_a != bit_b:
            resultado += 2 ** i  # bit i fica a 1
        a //= 2
        b //= 2
        i += 1
    return resultado


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
