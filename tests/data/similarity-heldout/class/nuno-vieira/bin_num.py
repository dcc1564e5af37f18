# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    lista = []
    place = 1
    while place * 2 <= numeral:
        place *= 2
    while numeral > 0 and place >= 1:
        if numeral >= place:
            lista.append(1)
            numeral -= place
        else:
            lista.append(0)
        place //= 2
    return lista



def binary_numeral(binary):
    soma = 0
    place = 1
    j = len(binary) - 1
    while j >= 0:
        soma = soma + binary[j] * place
        place = place * 2
        j = j - 1
    return soma


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(numeral_binary(case["value"])))
    else:
        print(json.dumps(binary_numeral(case["value"])))
