# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division


def bitwise_exclusive_or(a, b):
    """Return the bitwise exclusive or of the whole numbers a and b (0 or more)."""
    number1 = a
    number2 = b
    result = 0
    power = 1
    while number1 > 0 or number2 > 0:
        bit1 = number1 % 2
        bit2 = number2 % 2
        if bit1 == 1 and bit2 == 0:
            result = result + power
        elif bit1 == 0 and bit2 == 1:
            result = result + power
        else:
            pass
        number1 = number1 // 2
        number2 = number2 // 2
        power = power * 2
    return result


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
