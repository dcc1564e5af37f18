# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    # Your code here: don't use bin().
    powerTwo = 1
    while powerTwo * 2 <= numeral:
        powerTwo *= 2
    resultList = []
    while powerTwo >= 1:
        if numeral >= powerTwo:
            resultList.append(1)
            numeral -= powerTwo
        else:
            resultList.append(0)
        powerTwo //= 2
    return resultList


def binary_numeral(binary):
    # Your code here.
    runningTotal = 0
    for idx in range(len(binary)):
        runningTotal += binary[idx] * 2 ** (len(binary) - 1 - idx)
    return runningTotal


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(numeral_binary(case["value"])))
    else:
        print(json.dumps(binary_numeral(case["value"])))
