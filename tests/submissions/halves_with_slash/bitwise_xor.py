# -*- coding: utf-8 -*-
"""A student's bitwise_xor that halves with / and without `from __future__ import division`:
right on Python 2.7, where 5 / 2 is 2, and on Python 3 a loop over floats that only ends when
they underflow to 0, adding ever larger places on the way."""
from __future__ import print_function


def bitwise_exclusive_or(a, b):
    """Return the bitwise exclusive or of the whole numbers a and b (0 or more)."""
    result = 0
    place = 1
    while a > 0 or b > 0:
        if a % 2 != b % 2:
            result += place
        a = a / 2
        b = b / 2
        place *= 2
    return result


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
