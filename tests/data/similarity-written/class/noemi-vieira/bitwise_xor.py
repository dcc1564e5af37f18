# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division



def from_binary_list(digit_list):

    return sum(bit * 2 ** pos for pos, bit in enumerate(digit_list))


def bitwise_exclusive_or(a, b):
    """Return the bitwise exclusive or of the whole numbers a and b (0 or more)."""

    first, second = get_binary_list(a), get_binary_list(b)
    longest = max(len(second), len(first))

    second += [0] * (longest - len(second))
    first += [0] * (longest - len(first))


    return from_binary_list([int(p != q) for p, q in zip(first, second)])



def get_binary_list(num):
    digit_list = []
    while num:
        digit_list.append(num % 2)

        num //= 2
    return digit_list


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
