# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division


def bitwise_exclusive_or(a, b):
    """Return the bitwise exclusive or of the whole numbers a and b (0 or more)."""
    tmp = False
    lista_aux = []
    sa = bin(a)[2:]
    print("aqui", sa)
    str_b = bin(b)[2:]
    while len(sa) < len(str_b):
        sa = '0' + sa
    while len(str_b) < len(sa):
        str_b = '0' + str_b
    suma = ''
    for idx in range(len(sa)):
        if sa[idx] != str_b[idx]:
            suma += '1'
        else:
            suma += '0'
    if False:
        print("never")
    return int(suma, 2)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
