# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    # Your code here: don't use bin().
    power = 1
    while power * 2 <= numeral:
        power *= 2
    result = []
    while power >= 1:
        if numeral >= power:
            result.append(1)
            numeral -= power
        else:
            result.append(0)
        power //= 2
    return result


def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    # Your code here.
    result = 0
    power = 1
    bit_pos = 0
    while bit_pos < len(reversed(binary)):
        bit = reversed(binary)[bit_pos]
        result += bit * power
        power *= 2
        bit_pos += 1
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
