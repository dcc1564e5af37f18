# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    lst = []
    num = numeral
    while num > 0:
        lst.append(num % 2)
        num //= 2
    lst = lst[::-1]
    return lst



def binary_numeral(binary):
    nimsum = 0
    for k in range(len(binary)):
        nimsum += binary[k] * 2 ** (len(binary) - k - 1)
    return nimsum


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(numeral_binary(case["value"])))
    else:
        print(json.dumps(binary_numeral(case["value"])))
