# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""

from __future__ import print_function, division



def potencia(base, expoente):
    # calcula base elevado a expoente com um ciclo
    resultado = 1
    for i in range(expoente):
        # multiplica pela base tantas vezes quanto o expoente
        resultado = resultado * base
    return resultado



def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""

    # lista onde vamos guardar os digitos
    digitos = []

    # enquanto o numero for maior que zero
    while numeral > 0:

        # o resto da divisao por 2 e o digito
        digito = numeral % 2

        # guardamos o digito no inicio da lista
        digitos.insert(0, digito)

        # dividimos o numero por 2 (divisao inteira)
        numeral = numeral // 2

    # devolvemos a lista
    return digitos




def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""

    # o numero comeca a zero
    numero = 0

    # quantidade de digitos
    n = len(binary)

    # percorremos os digitos um a um
    for i in range(n):

        # o primeiro digito tem o maior expoente
        numero = numero + binary[i] * potencia(2, n - 1 - i)

    # devolvemos o numero
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
