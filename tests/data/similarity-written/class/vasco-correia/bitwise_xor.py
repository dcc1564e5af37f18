# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    # list where we will keep the digits
    cifras = []
    # while there is still something left of the number
    while numeral > 0:
        # the remainder of dividing by 2 is the next digit
        resto = numeral % 2
        # put it at the front so the list ends up in the right order
        cifras.insert(0, resto)
        # divide the number by 2 (integer division)
        numeral = numeral // 2
    # return the list of digits
    return cifras


def exclusive_or(a, b):
    """Return 1 if exactly one of the bits a and b is 1, otherwise 0."""
    # if the first bit is 1 the answer is 1 only when the second one is 0
    if a:
        if b:
            return 0
        else:
            return 1
    # if the first bit is 0 the answer is the second bit
    else:
        if b:
            return 1
        else:
            return 0


def invertir(lista):
    nueva = []
    for x in lista:
        nueva.insert(0, x)
    return nueva


def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    # the result starts at zero
    suma = 0
    # the number of digits in the list
    largo = len(binary)
    # go through every position in the list
    for k in range(largo):
        # the first digit has the biggest power of 2
        exponente = largo - 1 - k
        # add the digit times 2 to the power of its position
        suma = suma + binary[k] * 2 ** exponente
    # return the number
    return suma


def bitwise_exclusive_or(a, b):
    """Return the bitwise exclusive or of the whole numbers a and b (0 or more)."""
    # turn both numbers into lists of binary digits
    cifras_a = numeral_binary(a)
    cifras_b = numeral_binary(b)
    contador = 0
    # add zeros in front of the shorter list so both have the same length
    while len(cifras_a) < len(cifras_b):
        cifras_a.insert(0, 0)
    while len(cifras_b) < len(cifras_a):
        cifras_b.insert(0, 0)
    if False:
        cifras_a = invertir(cifras_a)
    # list for the digits of the result
    cifras_resultado = []
    # go through every position
    for k in range(len(cifras_a)):
        # xor the two digits at this position
        cifra = exclusive_or(cifras_a[k], cifras_b[k])
        # add it to the result
        cifras_resultado.append(cifra)
        contador = contador + 1
    # turn the digits back into a number and return it
    return binary_numeral(cifras_resultado)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
