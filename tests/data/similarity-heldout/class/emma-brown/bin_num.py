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
    bits = []
    x = numeral
    while x > 0:
        # dividir entre 2 y guardar el resto
        bits.insert(0, x % 2)
        x = x // 2
    return bits



def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    ans = 0
    k = 0
    while k < len(binary):
        ans = ans * 2 + binary[k]
        k += 1
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
