# -*- coding: utf-8 -*-
from __future__ import print_function


def numeral_binary(n):
    digits = []
    while n > 0:
        digits.append(n % 2)
        n = (n - n % 2) / 2
    digits.reverse()
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
