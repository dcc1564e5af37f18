# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    lista_bits = []
    while numeral:
        lista_bits.append(numeral & 1)  # bit menos significativo
        numeral >>= 1
    # inverter a lista no fim
    return lista_bits[::-1]


def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    res = 0
    for b in binary:
        res = (res << 1) | b
    return res


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(numeral_binary(case["value"])))
    else:
        print(json.dumps(binary_numeral(case["value"])))
