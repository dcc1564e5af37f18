# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    texto = ""
    # constroi a string com os restos
    while numeral > 0:
        texto = str(numeral % 2) + texto
        numeral = numeral // 2
    lista = []
    for c in texto:
        lista.append(int(c))
    return lista


def binary_numeral(binary):
    texto = ""
    for d in binary:
        texto = texto + str(d)
    # converte de base 2 para decimal
    if texto == "":
        return 0
    return int(texto, 2)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(numeral_binary(case["value"])))
    else:
        print(json.dumps(binary_numeral(case["value"])))
