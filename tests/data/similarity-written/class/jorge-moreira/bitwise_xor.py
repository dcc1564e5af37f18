# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division


def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    # Horner's method: shift what we have one place left, then add the digit.
    number = 0
    for digit in binary:
        number = number * 2 + digit
    return number


def bitwise_exclusive_or(a, b):
    """Return the bitwise exclusive or of the whole numbers a and b (0 or more)."""
    # Write both numbers in binary.
    digits_b = numeral_binary(b)
    digits_a = numeral_binary(a)
    # Pad the shorter list with zeros in front so the last digits line up.
    length = max(len(digits_a), len(digits_b))
    digits_b = [0] * (length - len(digits_b)) + digits_b
    digits_a = [0] * (length - len(digits_a)) + digits_a
    # XOR each pair of digits.
    digits = [exclusive_or(x, y) for x, y in zip(digits_a, digits_b)]
    # Turn the digits back into a number.
    return binary_numeral(digits)


def exclusive_or(a, b):
    """Return 1 if exactly one of the bits a and b is 1, otherwise 0."""
    # Only the two "mixed" cases give 1.
    if a == 0 and b == 1:
        return 1
    if a == 1 and b == 0:
        return 1
    # Both 0 or both 1.
    return 0


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    # Collect the remainders of repeated division by 2: they are the digits
    # from the least significant to the most significant.
    digits = []
    while numeral > 0:
        digits.append(numeral % 2)
        numeral = numeral // 2
    # Reverse them so the most significant digit comes first.
    digits.reverse()
    return digits


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
