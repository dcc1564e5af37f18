# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    # start with an empty list, 0 has no digits so it stays empty
    digits = []
    # keep dividing by 2 until nothing is left
    while numeral > 0:
        # the remainder is the last binary digit, put it in front
        digits.insert(0, numeral % 2)
        # integer division removes the digit we just took
        numeral = numeral // 2
    # digits are already most significant first
    return digits


def binary_numeral(binary):
    # the result starts at 0 (that's also the answer for an empty list)
    result = 0
    # go through the digits from left to right
    for digit in binary:
        # multiply what we have so far by 2 and add the new digit
        result = result * 2 + digit
    # return the number
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
