# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    bit_list=[]
    # each pass peels off the lowest binary digit
    while 0<numeral:
        # numeral%2 is the last digit
        bit_list.append(numeral&1)
        # drop that digit
        numeral=numeral>>1
    # digits were collected last-first, so flip them
    bit_list.reverse()
    return bit_list


def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    result=0
    # Horner's rule: read the digits left to right
    for b in binary:
        # shift what we have one place left and add the new digit
        result=b+2*result
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
