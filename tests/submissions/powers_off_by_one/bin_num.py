# -*- coding: utf-8 -*-
from __future__ import print_function, division


def numeral_binary(numeral):
    digits = []
    while numeral > 0:
        digits.append(numeral % 2)
        numeral //= 2
    digits.reverse()
    return digits


def binary_numeral(binary):
    numeral = 0
    for place, digit in enumerate(binary):
        numeral += digit * 2 ** (len(binary) - place)
    return numeral


if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(numeral_binary(case["value"])))
    else:
        print(json.dumps(binary_numeral(case["value"])))
