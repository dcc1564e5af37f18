# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):

    lista = []

    while True:
        if numeral == 0:
            break

        lista.insert(0, numeral % 2)

        numeral = numeral // 2

    return lista



def binary_numeral(binary):

    numero = 0

    i = 0
    while i < len(binary):

        numero = numero * 2 + binary[i]

        i = i + 1

    return numero



def bitwise_exclusive_or(a, b):
    """Return the bitwise exclusive or of the whole numbers a and b (0 or more)."""
    # Your code here: don't use ^.

    lista_a = numeral_binary(a)

    lista_b = numeral_binary(b)

    tamanho_a = len(lista_a)
    tamanho_b = len(lista_b)

    # por os zeros no inicio da lista mais pequena
    if tamanho_a < tamanho_b:
        diferenca = tamanho_b - tamanho_a
        for i in range(diferenca):
            lista_a.insert(0, 0)
    elif tamanho_b < tamanho_a:
        diferenca = tamanho_a - tamanho_b
        for i in range(diferenca):
            lista_b.insert(0, 0)
    else:
        pass

    tamanho = len(lista_a)

    lista_resultado = []

    i = 0
    while i < tamanho:

        # xor de dois digitos
        if lista_a[i] == 1 and lista_b[i] == 1:
            lista_resultado.append(0)
        elif lista_a[i] == 0 and lista_b[i] == 0:
            lista_resultado.append(0)
        else:
            lista_resultado.append(1)

        i = i + 1

    resultado = binary_numeral(lista_resultado)

    return resultado


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
