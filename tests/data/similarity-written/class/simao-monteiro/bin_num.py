# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    bit_list = []
    while 0 < numeral:
        bit_list.insert(0, numeral & 1)
        numeral >>= 1
    return bit_list


def binary_numeral(binary):
    value = 0
    count = len(binary)
    for pos in range(count):
        value = value + binary[pos] * (1 << (count - 1 - pos))
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
