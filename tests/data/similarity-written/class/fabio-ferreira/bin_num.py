# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    digits = []
    # divmod gives quotient and remainder in one go:
    # the remainder is the lowest binary digit, the quotient is what is left.
    while numeral > 0:
        numeral, digit = divmod(numeral, 2)
        digits.append(digit)
    # Digits were produced least significant first; the statement wants
    # the most significant first.
    digits.reverse()
    return digits


def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    # Every step shifts the value one binary place to the left (times 2)
    # and drops the next digit into the free lowest place.
    value = 0
    for digit in binary:
        value = 2 * value + digit
    # Leading zeros do nothing (0 * 2 + 0 == 0) and [] gives 0.
    return value


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(numeral_binary(case["value"])))
    else:
        print(json.dumps(binary_numeral(case["value"])))
