# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    if numeral==0:
        return []
    # find the biggest power of 2 that fits
    power=1
    while power*2<=numeral:
        power=power*2
    digits=[]
    # go down through the powers and subtract
    while power>=1:
        if numeral>=power:
            digits.append(1)
            numeral=numeral-power
        else:
            digits.append(0)
        power=power//2
    return digits


def binary_numeral(binary):
    total=0
    power=1
    for i in range(len(binary)):
        total=total+binary[len(binary)-1-i]*power
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
