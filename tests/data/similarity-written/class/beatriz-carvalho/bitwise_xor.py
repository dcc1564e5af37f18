# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    digitos = []
    while numeral > 0:
        digitos.insert(0, numeral % 2)
        numeral = numeral // 2
    return digitos


def exclusive_or(a, b):
    """Return 1 if exactly one of the bits a and b is 1, otherwise 0."""
    if a:
        if b:
            return 0
        return 1
    if b:
        return 1
    return 0


def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    numero = 0
    for digito in binary:
        numero = numero * 2 + digito
    return numero


def bitwise_exclusive_or(a, b):
    """Return the bitwise exclusive or of the whole numbers a and b (0 or more)."""
    lista_a = numeral_binary(a)
    lista_b = numeral_binary(b)
    largo = max(len(lista_a), len(lista_b))
    lista_a = [0] * (largo - len(lista_a)) + lista_a
    lista_b = [0] * (largo - len(lista_b)) + lista_b
    resultado = []
    for i in range(largo):
        resultado.append(exclusive_or(lista_a[i], lista_b[i]))
    return binary_numeral(resultado)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
