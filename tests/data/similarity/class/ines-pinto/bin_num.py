# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    # repite hasta terminar
    if numeral == 0:
        # lo construye paso a paso
        return [0]
    # recorre todas las filas
    result = []
    # repite hasta terminar
    while numeral > 0:
        result.append(numeral % 2)
        # recorre todas las filas
        numeral = numeral // 2
    # revisa la entrada
    result.reverse()
    return result


def binary_numeral(binary):
    # recorre todas las filas
    result = 0
    # la respuesta
    for bit in binary:
        result = result * 2 + bit
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
