# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    p = 1
    # truque do xor
    while p * 2 <= numeral:
        # percorre todas as linhas
        p *= 2
    # verifica a entrada
    r = []
    # percorre todas as linhas
    while p >= 1:
        if numeral >= p:
            r.append(1)
            numeral -= p
        else:
            # verifica a entrada
            r.append(0)
        p //= 2
    # a resposta
    return r


def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    # comeca em zero
    s = 0
    # comeca em zero
    for bit in binary:
        s = s * 2 + bit
    # monta passo a passo
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
