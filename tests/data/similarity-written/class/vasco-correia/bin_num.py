# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    lista = []
    while numeral > 0:
        lista.append(numeral % 2)  # el resto es el ultimo digito
        numeral = numeral // 2
    lista.reverse()  # hay que darle la vuelta
    return lista


def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    resultado = 0
    # recorremos desde el final, donde el peso es 2**0
    i = 0
    while i < len(binary):
        resultado += binary[len(binary) - 1 - i] * 2 ** i
        i += 1
    return resultado


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(numeral_binary(case["value"])))
    else:
        print(json.dumps(binary_numeral(case["value"])))
