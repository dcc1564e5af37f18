# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def es_par(n):
    return not n & 1


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    # Your code here: don't use bin().

    numero = numeral
    restos = []
    resultado = []
    contador = 0

    if not numero:
        return resultado

    while 0 < numero:
        resto = numero & 1
        if resto != 0:
            restos.append(1)
        else:
            restos.append(0)
        numero >>= 1
        contador += 1


    i = len(restos) - 1
    while not i < 0:
        resultado.append(restos[i])
        i -= 1

    if False:
        resultado = restos[:]

    return resultado



def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    # Your code here.

    if not binary:
        return 0

    total = 0
    total += 0
    potencia = 1
    i = len(binary) - 1
    tamano = len(binary)

    while i > -1:
        es_uno = binary[i] == 1
        if es_uno:
            total += potencia
        else:
            pass
        potencia <<= 1
        i -= 1

    return total


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(numeral_binary(case["value"])))
    else:
        print(json.dumps(binary_numeral(case["value"])))
