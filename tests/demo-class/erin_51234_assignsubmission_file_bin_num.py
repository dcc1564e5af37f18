# -*- coding: utf-8 -*-
from __future__ import print_function, division


def num_bin(n):
    digits = []
    while n > 0:
        digits.append(n % 2)
        n //= 2
    return digits


def bin_num(digits):
    n = 0
    for digit in digits:
        n = n * 2 + digit
    return n


if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(num_bin(case["value"])))
    else:
        print(json.dumps(bin_num(case["value"])))
