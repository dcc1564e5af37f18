# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    numero = numeral
    binario = []
    # dividir entre 2 hasta llegar a 0
    while numero > 0:
        binario.insert(0, numero % 2)
        numero = numero // 2
    return binario


def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    resultado = 0
    exponente = len(binary) - 1
    # el primer digito vale 2 elevado al exponente mas alto
    for digito in binary:
        resultado = resultado + digito * 2 ** exponente
        exponente = exponente - 1
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
