# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division
import sys


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    # lista onde vamos guardar os digitos binarios
    digitos = []
    # dividimos sucessivamente por 2 ate chegar a zero
    while numeral > 0:
        # o resto da divisao e o digito, que vai para o inicio da lista
        digitos.insert(0, numeral % 2)
        # print("resto:", numeral % 2)
        # passamos ao quociente
        numeral = numeral // 2
        print("numeral =", numeral, "digitos =", digitos, file=sys.stderr)
    # para o zero a lista fica vazia, como pedido
    return digitos


def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    # valor acumulado
    valor = 0
    # numero de digitos da lista
    tamanho = len(binary)
    print("tamanho", tamanho, file=sys.stderr)
    # percorremos as posicoes da lista
    for i in range(tamanho):
        # o digito na posicao i vale 2 elevado a (tamanho - 1 - i)
        valor += binary[i] * 2 ** (tamanho - 1 - i)
        # print(i, valor)
    # devolvemos o numero
    print("DEBUG valor final:", valor, file=sys.stderr)
    return valor


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(numeral_binary(case["value"])))
    else:
        print(json.dumps(binary_numeral(case["value"])))
