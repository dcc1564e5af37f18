# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    # lista onde vamos guardar os digitos binarios
    digits = []
    # dividimos sucessivamente por 2 ate chegar a zero
    while numeral > 0:
        # o resto da divisao e o digito, que vai para o inicio da lista
        digits.insert(0, numeral % 2)
        # passamos ao quociente
        numeral = numeral // 2
    # para o zero a lista fica vazia, como pedido
    return digits


def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    # sum of all the digits times their power of 2
    total=0
    # the last digit is worth 1
    power=1
    # go from the last digit to the first
    for digit in reversed(binary):
        # add the value of this digit
        total=total+digit*power
        # next position is worth twice as much
        power=power*2
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
