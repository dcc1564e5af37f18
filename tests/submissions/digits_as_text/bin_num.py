# -*- coding: utf-8 -*-
from __future__ import print_function, division


def numeral_binary(numeral):
    text = ""
    while numeral > 0:
        text = str(numeral % 2) + text
        numeral //= 2
    return list(text)


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
