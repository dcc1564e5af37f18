# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    # Your code here: don't use bin().
    # comprobar que el numero es valido
    if not isinstance(numeral, int) or numeral < 0:
        return []
    if numeral == 0:
        return []
    lista_bits = []
    while numeral > 0:
        lista_bits.append(numeral % 2)
        numeral = numeral // 2
    lista_bits.reverse()
    return lista_bits


def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    # Your code here.
    if binary is None or len(binary) == 0:
        return 0
    numero = 0
    for bit in binary:
        # solo se aceptan 0 y 1
        if bit != 0 and bit != 1:
            return 0
        numero = numero * 2 + bit
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
