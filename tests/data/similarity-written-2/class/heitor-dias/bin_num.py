# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    digits=[]
    # each pass peels off the lowest binary digit
    while numeral>0:
        # numeral%2 is the last digit
        digits.append(numeral%2)
        # drop that digit
        numeral//=2
    # digits were collected last-first, so flip them
    digits.reverse()
    return digits


def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    value=0
    # Horner's rule: read the digits left to right
    for digit in binary:
        # shift what we have one place left and add the new digit
        value=value*2+digit
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
