# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    digitos = []
    while numeral > 0:
        digitos.insert(0, numeral % 2)
        numeral = numeral // 2
    return digitos


def binary_numeral(binary):
    numero = 0
    for d in binary:
        numero = numero * 2 + d
    return numero


def bitwise_exclusive_or(a, b):
    lista_a = numeral_binary(a)
    lista_b = numeral_binary(b)
    # as listas tem de ter o mesmo tamanho
    while len(lista_a) < len(lista_b):
        lista_a.append(0)
    while len(lista_b) < len(lista_a):
        lista_b.append(0)
    # xor digito a digito
    lista = []
    for i in range(len(lista_a)):
        if lista_a[i] != lista_b[i]:
            lista.append(1)
        else:
            lista.append(0)
    return binary_numeral(lista)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
