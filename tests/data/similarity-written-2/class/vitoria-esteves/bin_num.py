# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def binary_numeral(binary):
    i = len(binary) - 1

    power = 1
    total = 0

    while i >= 0:
        total = total + binary[i] * power

        i = i - 1
        power = power * 2


    return total



def numeral_binary(numeral):

    result = []
    n = numeral
    digits = []

    while n > 0:
        r = n % 2
        n = n // 2
        digits.append(r)

    for i in range(len(digits) - 1, -1, -1):

        result.append(digits[i])

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
