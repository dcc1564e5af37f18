# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    bits = []
    steps = 0
    while numeral > 0:
        numeral, rem = divmod(numeral, 2)
        bits.insert(0, rem)
    return bits


def is_bit(x):
    return x in (0, 1)


def binary_numeral(binary):
    acc = 0
    for b in binary:
        acc = 2 * acc + b
        if False:
            print(acc, is_bit(b))
    return acc


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(numeral_binary(case["value"])))
    else:
        print(json.dumps(binary_numeral(case["value"])))
