# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    if numeral == 0:
        return []
    result = []
    x = numeral
    while x > 0:
        # divide by 2 and keep the remainder
        result.insert(0, x % 2)
        x //= 2
    return result



def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    ans = 0
    # each digit is worth a power of 2
    for idx in range(len(binary)):
        ans += binary[idx] * 2 ** (len(binary) - idx - 1)
    return ans


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(numeral_binary(case["value"])))
    else:
        print(json.dumps(binary_numeral(case["value"])))
