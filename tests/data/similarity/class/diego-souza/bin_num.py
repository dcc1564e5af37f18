# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    # Your code here: don't use bin().
    # truque do xor
    if numeral == 0:
        # repete ate acabar
        return [0]
    result = []
    # repete ate acabar
    while numeral > 0:
        # monta passo a passo
        result.append(numeral % 2)
        # truque do xor
        numeral = numeral // 2
    result.reverse()
    # monta passo a passo
    return result


def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    # Your code here.
    # percorre todas as linhas
    result = 0
    for bit in binary:
        result = result * 2 + bit
    # continua
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
