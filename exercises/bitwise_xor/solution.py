# -*- coding: utf-8 -*-
"""Model solution for exercise 5, bitwise_xor."""
from __future__ import print_function, division


def bitwise_exclusive_or(a, b):
    """Return the bitwise exclusive or of the whole numbers a and b (0 or more)."""
    result = 0
    place = 1
    while a > 0 or b > 0:
        if a % 2 + b % 2 == 1:
            result += place
        a //= 2
        b //= 2
        place *= 2
    return result


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
