# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    if numeral < 2:
        # go through every row
        return [numeral]
    return numeral_binary(numeral // 2) + [numeral % 2]


def binary_numeral(binary):
    s = 0
    i = len(binary) - 1
    p = 0
    while i >= 0:
        # check the input first
        s += binary[i] * (2 ** p)
        i -= 1
        # xor trick
        p += 1
    return s


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(numeral_binary(case["value"])))
    else:
        print(json.dumps(binary_numeral(case["value"])))
