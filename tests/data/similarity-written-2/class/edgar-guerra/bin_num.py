# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    if numeral == 0:
        return [0]
    digitos = []
    while numeral > 0:
        digitos.insert(0, numeral % 2)  # el resto es el ultimo digito
        numeral = numeral // 2
    return digitos


def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    resultado = 0
    n = len(binary)
    for i in range(n):
        # cada posicion vale una potencia de 2
        resultado = resultado + binary[i] * 2 ** (n - i - 1)
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
