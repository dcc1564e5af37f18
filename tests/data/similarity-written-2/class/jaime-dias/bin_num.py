# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    # Your code here: don't use bin().
    # texto onde vou juntando os digitos
    texto = ""
    numero = numeral
    # enquanto o numero for maior que zero
    while numero > 0:
        # o resto da divisao por 2 e o digito
        resto = numero % 2
        # ponho o digito a frente do texto
        texto = str(resto) + texto
        # divido o numero por 2
        numero = numero // 2
    # agora passo o texto para uma lista de inteiros
    lista = []
    for letra in texto:
        lista.append(int(letra))
    # devolvo a lista
    return lista


def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    # Your code here.
    # se a lista estiver vazia o numero e zero
    if len(binary) == 0:
        return 0
    # junto os digitos num texto
    texto = ""
    for digito in binary:
        texto = texto + str(digito)
    # o int com base 2 converte o texto para numero
    numero = int(texto, 2)
    # devolvo o numero
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
