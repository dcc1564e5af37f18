# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    digits = []
    while numeral > 0:
        digits.insert(0, numeral % 2)
        numeral = numeral // 2
    return digits


def exclusive_or(a, b):
    if a == 1:
        if b == 1:
            return 0
        return 1
    else:
        if b == 1:
            return 1
        return 0


def binary_numeral(binary):
    number = 0
    power = 1
    # start from the last digit
    for i in range(len(binary) - 1, -1, -1):
        number = number + binary[i] * power
        power = power * 2
    return number


def bitwise_exclusive_or(a, b):
    """Return the bitwise exclusive or of the whole numbers a and b (0 or more)."""
    list_a = numeral_binary(a)
    list_b = numeral_binary(b)
    # make them the same length
    while len(list_a) < len(list_b):
        list_a.insert(0, 0)
    while len(list_b) < len(list_a):
        list_b.insert(0, 0)
    list_xor = []
    for i in range(len(list_a)):
        list_xor.append(exclusive_or(list_a[i], list_b[i]))
    #print(list_a, list_b, list_xor)
    return binary_numeral(list_xor)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
