# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division
import math


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    # Your code here: don't use bin().
    number = numeral
    remainders = []
    if number == 0:
        return []
    while number != 0:
        remainder = number % 2
        remainders.append(remainder)
        number = number // 2
    digits = []
    index = len(remainders) - 1
    while index >= 0:
        digits.append(remainders[index])
        index = index - 1
    return digits


def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    # Your code here.
    number = 0
    length = len(binary)
    for i in range(length):
        digit = binary[i]
        power = 1
        for j in range(length - 1 - i):
            power = power * 2
        number = number + digit * power
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
