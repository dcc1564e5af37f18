# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division


def bitwise_exclusive_or(a, b):
    """Return the bitwise exclusive or of the whole numbers a and b (0 or more)."""
    # Your code here: don't use ^.
    # digitos de cada numero, del ultimo al primero
    digitos_a = []
    digitos_b = []
    while a > 0:
        digitos_a.append(a % 2)
        a = a // 2
    while b > 0:
        digitos_b.append(b % 2)
        b = b // 2

    # rellenar con ceros la lista mas corta
    while len(digitos_a) < len(digitos_b):
        digitos_a.append(0)
    while len(digitos_b) < len(digitos_a):
        digitos_b.append(0)

    resultado = 0
    for i in range(len(digitos_a)):
        if digitos_a[i] != digitos_b[i]:
            resultado = resultado + 2 ** i
    return resultado


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
