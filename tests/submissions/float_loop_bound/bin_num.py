# -*- coding: utf-8 -*-
"""A student's bin_num that reverses its digits by hand, swapping up to len(digits) / 2:
a whole number on Python 2.7 (without `from __future__ import division`), a float on
Python 3, where range() refuses it."""
from __future__ import print_function


def numeral_binary(n):
    digits = []
    while n > 0:
        digits.append(n % 2)
        n = n // 2
    for i in range(len(digits) / 2):
        digits[i], digits[-1 - i] = digits[-1 - i], digits[i]
    return digits


def binary_numeral(digits):
    n = 0
    for digit in digits:
        n = n * 2 + digit
    return n


if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(numeral_binary(case["value"])))
    else:
        print(json.dumps(binary_numeral(case["value"])))
