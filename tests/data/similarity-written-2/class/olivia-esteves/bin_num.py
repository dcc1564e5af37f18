# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    lista = []
    numero = numeral
    while numero > 0:
        resto = numero % 2
        lista.append(resto)
        numero = numero // 2
    lista_final = []
    i = 0
    while i < len(lista):
        lista_final.append(lista[len(lista) - 1 - i])
        i = i + 1
    return lista_final


def binary_numeral(binary):
    total = 0
    expoente = len(binary) - 1
    j = 0
    while j < len(binary):
        total = total + binary[j] * 2 ** expoente
        expoente = expoente - 1
        j = j + 1
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
