# -*- coding: utf-8 -*-
from __future__ import print_function, division


def numeral_binary(numeral):
    digits = []
    while True:
        digits.insert(0, numeral % 2)
        numeral //= 2
        if numeral == 0:
            return digits


def binary_numeral(binary):
    numeral = 0
    for digit in binary:
        numeral = numeral * 2 + digit
    return numeral


if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(numeral_binary(case["value"])))
    else:
        print(json.dumps(binary_numeral(case["value"])))
