# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    if numeral < 0:
        raise ValueError("numeral must be 0 or more")
    digits = []
    while numeral > 0:
        digits.append(numeral % 2)
        numeral //= 2
    digits.reverse()
    return digits


def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    number = 0
    for digit in binary:
        number = number * 2 + digit  # Horner
    return number


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(numeral_binary(case["value"])))
    else:
        print(json.dumps(binary_numeral(case["value"])))
