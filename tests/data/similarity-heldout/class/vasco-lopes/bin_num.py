# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    if numeral == 0:
        return []
    res = []
    valor = numeral
    while valor > 0:
        # dividir por 2 e guardar o resto
        res.insert(0, valor % 2)
        valor = valor // 2
    return res



def binary_numeral(binary):
    nimsum = 0
    for i, bit in enumerate(reversed(binary)):
        nimsum += bit * 2 ** i
    return nimsum


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(numeral_binary(case["value"])))
    else:
        print(json.dumps(binary_numeral(case["value"])))
