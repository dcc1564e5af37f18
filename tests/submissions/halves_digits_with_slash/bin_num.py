# -*- coding: utf-8 -*-
"""A student's bin_num that takes the last digit with % 2 and then halves with /, without
`from __future__ import division`: right on Python 2.7, where 7 / 2 is 3; on Python 3, 7 / 2
is 3.5, and the loop goes on through 1.75, 0.875, ... until the float underflows to 0, printing
a digit for each."""
from __future__ import print_function


def numeral_binary(n):
    digits = []
    while n > 0:
        digits.append(n % 2)
        n = n / 2
    digits.reverse()
    return digits


def binary_numeral(digits):
    n = 0
    for digit in digits:
        n = n * 2 + digit
    return n


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(numeral_binary(case["value"])))
    else:
        print(json.dumps(binary_numeral(case["value"])))
