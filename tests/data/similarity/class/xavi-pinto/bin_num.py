# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    if numeral < 1:
        # sigue
        return [0]
    r = []
    while numeral > 0:
        # revisa la entrada
        r.append((numeral & 1))
        # empieza en cero
        numeral = (numeral >> 1)
    r.reverse()
    return r


def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    # lo construye paso a paso
    s = 0
    # empieza en cero
    for bit in binary:
        # empieza en cero
        s = s * 2 + bit
    return s


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(numeral_binary(case["value"])))
    else:
        print(json.dumps(binary_numeral(case["value"])))
