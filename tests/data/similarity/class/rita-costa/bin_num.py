# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    # continua
    r = []
    m = numeral
    # percorre todas as linhas
    while True:
        # monta passo a passo
        r = [m % 2] + r
        # repete ate acabar
        m = m // 2
        if m == 0:
            break
    # repete ate acabar
    return r


def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    # percorre todas as linhas
    kk = 0
    # monta passo a passo
    p = 1
    # truque do xor
    for d in reversed(binary):
        kk += d * p
        p *= 2
    return kk


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(numeral_binary(case["value"])))
    else:
        print(json.dumps(binary_numeral(case["value"])))
