# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division
from functools import reduce


def numeral_binary(numeral):
    # Guardamos os restos das divisoes sucessivas por 2
    restos = []
    while numeral > 0:
        # divmod devolve o quociente e o resto de uma so vez
        numeral, resto = divmod(numeral, 2)
        restos.append(resto)
    # Os restos saem do menos significativo para o mais significativo,
    # por isso devolvemos a lista invertida
    return list(reversed(restos))


def binary_numeral(binary):
    # Regra de Horner: cada digito novo duplica o valor acumulado e soma-se.
    # O valor inicial 0 trata tambem o caso da lista vazia.
    return reduce(lambda acumulado, digito: 2 * acumulado + digito, binary, 0)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(numeral_binary(case["value"])))
    else:
        print(json.dumps(binary_numeral(case["value"])))
