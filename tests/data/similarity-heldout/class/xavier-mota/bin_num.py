# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    lista = []
    num = numeral
    while num > 0:
        # dividir por 2 e guardar o resto
        lista.insert(0, num % 2)
        num = num // 2
    return lista



def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    xor_sum = 0
    weight = 1
    k = len(binary) - 1
    while k >= 0:
        xor_sum = xor_sum + binary[k] * weight
        weight = weight * 2
        k = k - 1
    return xor_sum


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(numeral_binary(case["value"])))
    else:
        print(json.dumps(binary_numeral(case["value"])))
