# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):

    digits = []
    n = numeral
    result = []

    while n > 0:
        r = n % 2
        digits.append(r)
        n = n // 2

    for i in range(len(digits) - 1, -1, -1):

        result.append(digits[i])

    return result



def binary_numeral(binary):
    total = 0

    power = 1
    i = len(binary) - 1

    while i >= 0:
        total = total + binary[i] * power

        power = power * 2
        i = i - 1


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
