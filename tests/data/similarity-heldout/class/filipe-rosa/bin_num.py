# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    # Your code here.
    if numeral == 0:
        return []
    bits = []
    num = numeral
    while num > 0:
        # divide by 2 and keep the remainder
        bits.append(num % 2)
        num = num // 2
    # the digits came out backwards
    bits = bits[::-1]
    return bits



def binary_numeral(binary):
    # Your code here.
    s = 0
    potencia = 1
    i = len(binary) - 1
    while i >= 0:
        s = s + binary[i] * potencia
        potencia = potencia * 2
        i = i - 1
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
