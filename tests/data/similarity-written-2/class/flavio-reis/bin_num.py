# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    # make an empty list for the digits
    list_of_digits = []
    # loop while the number is bigger than 0
    while numeral > 0:
        # get the remainder when dividing by 2
        remainder = numeral % 2
        # add the remainder to the list
        list_of_digits.append(remainder)
        # divide the number by 2 (integer division)
        numeral = numeral // 2
    # the list is backwards so reverse it
    list_of_digits.reverse()
    # return the list
    return list_of_digits


def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    # start the number at 0
    number = 0
    # go through each digit in the list
    for digit in binary:
        # multiply the number by 2 and add the digit
        number = number * 2 + digit
    # return the number
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
