# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    binary = []
    while numeral > 0:
        binary.insert(0, numeral % 2)  # add to the front
        numeral = numeral // 2
    return binary


def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    number = 0
    n = len(binary)
    # each digit is worth a power of 2
    for i in range(n):
        if binary[i] == 1:
            number = number + 2 ** (n - i - 1)
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
