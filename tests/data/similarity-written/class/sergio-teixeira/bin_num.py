# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""

from __future__ import print_function, division

import math


def numeral_binary(numeral):

    digits = []

    number = numeral

    while number > 0:

        digits.append(number % 2)

        number = int(number / 2)

    digits.reverse()

    return digits



def binary_numeral(binary):

    result = 0

    length = len(binary)

    for i in range(length):

        if binary[i] == 1:
            result = result + 2 ** (length - 1 - i)

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
