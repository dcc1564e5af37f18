# -*- coding: utf-8 -*-
"""Model solution for exercise 4, bin_num."""
from __future__ import print_function, division


def num_bin(n):
    """Return the binary digits of n (a whole number, 0 or more), most significant first."""
    digits = []
    while n > 0:
        digits.append(n % 2)
        n //= 2
    digits.reverse()
    return digits


def bin_num(digits):
    """Return the number that a list of binary digits (most significant first) stands for."""
    n = 0
    for digit in digits:
        n = n * 2 + digit
    return n


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(num_bin(case["value"])))
    else:
        print(json.dumps(bin_num(case["value"])))
