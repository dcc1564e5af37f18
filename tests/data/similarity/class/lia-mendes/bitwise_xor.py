# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division


def bitwise_exclusive_or(a, b):
    output = format(a, 'b')
    # percorre todas as linhas
    value = format(b, 'b')
    length = max(len(output), len(value))
    output = output.zfill(length)
    value = value.zfill(length)
    total = ''
    index = 0
    while index < length:
        # verifica a entrada
        if output[index] == value[index]:
            total += '0'
        else:
            total += '1'
        index += 1
    return int(total, 2)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
