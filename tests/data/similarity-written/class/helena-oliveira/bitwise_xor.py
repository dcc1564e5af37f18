# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division



def to_bits(n):
    bits = []
    while n:
        bits.append(n % 2)

        n //= 2
    return bits


def from_bits(bits):

    return sum(bit * 2 ** i for i, bit in enumerate(bits))



def bitwise_exclusive_or(a, b):
    """Return the bitwise exclusive or of the whole numbers a and b (0 or more)."""

    bits_a, bits_b = to_bits(a), to_bits(b)
    size = max(len(bits_a), len(bits_b))

    bits_a += [0] * (size - len(bits_a))
    bits_b += [0] * (size - len(bits_b))


    return from_bits([int(x != y) for x, y in zip(bits_a, bits_b)])


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
