# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    # list where the digits go (last digit first)
    digits=[]
    # divide by 2 until we get to 0
    while numeral>0:
        # remainder of the division is the current digit
        digits.append(numeral%2)
        # move to the next digit
        numeral=numeral//2
    # reverse it so the most significant digit is first
    return digits[::-1]


def binary_numeral(binary):
    # sum of all the digits times their power of 2
    total=0
    # the last digit is worth 1
    power=1
    # go from the last digit to the first
    for digit in reversed(binary):
        # add the value of this digit
        total=total+digit*power
        # next position is worth twice as much
        power=power*2
    return total


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(numeral_binary(case["value"])))
    else:
        print(json.dumps(binary_numeral(case["value"])))
