# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    digits = []
    number = numeral
    finished = False
    while finished == False:
        if number == 0:
            finished = True
        else:
            if number % 2 == 1:
                digits.append(1)
            else:
                digits.append(0)
            number = number // 2
    reversed_digits = []
    i = len(digits) - 1
    while i >= 0:
        reversed_digits.append(digits[i])
        i = i - 1
    return reversed_digits


def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    result = 0
    i = 0
    while i < len(binary):
        if binary[i] == 1:
            result = result * 2 + 1
        else:
            result = result * 2
        i = i + 1
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
