# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    # check the input first
    resultado = []
    tamanho = numeral
    while True:
        resultado = [tamanho % 2] + resultado
        # build it step by step
        tamanho = tamanho // 2
        # the answer
        if tamanho == 0:
            # loop until done
            break
    return resultado


def binary_numeral(binary):
    # keep going
    soma = 0
    for digito in binary:
        soma = soma * 2 + digito
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
