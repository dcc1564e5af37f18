# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def inverter(lista):
    # devolve uma lista nova com os elementos pela ordem inversa
    nova = []
    for elemento in lista:
        nova.insert(0, elemento)
    return nova


def numeral_binary(numeral):
    restos = []
    while numeral > 0:
        restos.append(numeral % 2)
        numeral = numeral // 2
    return inverter(restos)


def binary_numeral(binary):
    # do ultimo digito para o primeiro
    numero = 0
    potencia = 1
    for digito in inverter(binary):
        numero = numero + digito * potencia
        potencia = potencia * 2
    return numero


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(numeral_binary(case["value"])))
    else:
        print(json.dumps(binary_numeral(case["value"])))
