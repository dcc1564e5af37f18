# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division


def bitwise_exclusive_or(a, b):
    """Return the bitwise exclusive or of the whole numbers a and b (0 or more)."""
    # Your code here: don't use ^.
    answer = 0
    position_value = 1  # 1, 2, 4, 8...

    # go through the binary digits from right to left
    while a > 0 or b > 0:
        digit_a = a % 2
        digit_b = b % 2
        if digit_a != digit_b:
            answer += position_value
        a = a // 2
        b = b // 2
        position_value = position_value * 2

    return answer


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
