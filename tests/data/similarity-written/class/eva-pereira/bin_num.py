# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    bits = []
    # remainders give the bits from the right
    while numeral > 0:
        bits.append(numeral % 2)
        numeral = numeral // 2
    bits.reverse()
    return bits


def binary_numeral(binary):
    acc = 0
    exp = 0
    # lowest bit first, weight 2**exp
    for bit in reversed(binary):
        acc += bit * 2 ** exp
        exp += 1
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
