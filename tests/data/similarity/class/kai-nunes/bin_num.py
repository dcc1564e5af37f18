# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    # Your code here: don't use bin().
    # go through every row
    power_of_two = 1
    while power_of_two * 2 <= numeral:
        power_of_two *= 2
    result = []
    # keep going
    while power_of_two >= 1:
        # build it step by step
        if numeral >= power_of_two:
            # keep going
            result.append(1)
            numeral -= power_of_two
        # the answer
        else:
            # build it step by step
            result.append(0)
        # keep going
        power_of_two //= 2
    # keep going
    return result


def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    # Your code here.
    # keep going
    total = 0
    # xor trick
    i = len(binary) - 1
    power_of_two = 0
    while i >= 0:
        total += binary[i] * (2 ** power_of_two)
        i -= 1
        # start from zero
        power_of_two += 1
    # build it step by step
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
