# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    # Your code here: don't use bin().
    # the list of digits, filled from the last digit to the first
    digits = []
    # while there is still something left to convert
    while numeral > 0:
        # the remainder of dividing by 2 is the current last digit
        digit = numeral % 2
        digits.append(digit)
        # integer division by 2 removes that digit
        numeral = numeral // 2
    # we got the digits in reverse order, so reverse the list
    digits.reverse()
    # for 0 the loop never runs and we return []
    return digits


def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    # Your code here.
    # the value so far
    value = 0
    # read the digits from the most significant one
    for digit in binary:
        # every new digit shifts the previous ones one place to the left
        value = value * 2 + digit
    # an empty list gives 0
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
