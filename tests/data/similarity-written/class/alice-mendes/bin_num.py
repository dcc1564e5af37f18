# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    # Collect the digits from the least significant one upwards.
    bits = []
    # Zero simply skips the loop, so it gives the empty list as required.
    while numeral > 0:
        # The remainder mod 2 is the current last digit...
        bits.append(numeral % 2)
        # ...and integer division by 2 drops that digit.
        numeral //= 2
    # We produced the digits last-first, so flip them around.
    bits.reverse()
    return bits


def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    # Horner's rule: start at 0 and, for every digit, shift left and add it.
    value = 0
    for bit in binary:
        # Doubling the value shifts it one binary place to the left.
        value = value * 2 + bit
    # An empty list never enters the loop and returns 0.
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
