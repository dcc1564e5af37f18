# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    # list where we will keep the digits
    algarismos = []
    # while there is still something left of the number
    while numeral > 0:
        # the remainder of dividing by 2 is the next digit
        resto = numeral % 2
        # put it at the front so the list ends up in the right order
        algarismos.insert(0, resto)
        # divide the number by 2 (integer division)
        numeral = numeral // 2
    # return the list of digits
    return algarismos


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


def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    # the result starts at zero
    total = 0
    # the number of digits in the list
    tamanho = len(binary)
    # go through every position in the list
    for j in range(tamanho):
        # the first digit has the biggest power of 2
        expoente = tamanho - 1 - j
        # add the digit times 2 to the power of its position
        total = total + binary[j] * 2 ** expoente
    # return the number
    return total


def bitwise_exclusive_or(a, b):
    """Return the bitwise exclusive or of the whole numbers a and b (0 or more)."""
    # turn both numbers into lists of binary digits
    bin_a = numeral_binary(a)
    bin_b = numeral_binary(b)
    # add zeros in front of the shorter list so both have the same length
    while len(bin_a) < len(bin_b):
        bin_a.insert(0, 0)
    while len(bin_b) < len(bin_a):
        bin_b.insert(0, 0)
    # list for the digits of the result
    bits_resultado = []
    # go through every position
    for j in range(len(bin_a)):
        # xor the two digits at this position
        bit = exclusive_or(bin_a[j], bin_b[j])
        # add it to the result
        bits_resultado.append(bit)
    # turn the digits back into a number and return it
    return binary_numeral(bits_resultado)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
