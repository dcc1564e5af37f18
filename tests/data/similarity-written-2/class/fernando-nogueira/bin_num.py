# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    bits = []
    while numeral:
        bits.append(numeral & 1)  # lowest bit
        numeral >>= 1
    return bits[::-1]


def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    result = 0
    for bit in binary:
        result = (result << 1) | bit
    return result


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(numeral_binary(case["value"])))
    else:
        print(json.dumps(binary_numeral(case["value"])))
