# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):

    result = []

    while numeral > 0:
        result.append(numeral % 2)
        numeral = numeral // 2
        # print(result)

    # remainders come out reversed
    result.reverse()

    return result




def binary_numeral(binary):
    total = 0

    for digit in binary:

        total = total * 2 + digit

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
