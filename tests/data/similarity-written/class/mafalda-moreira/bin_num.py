# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    # list where we will keep the digits
    algarismos = []
    original = numeral
    # while there is still something left of the number
    while numeral > 0:
        # the remainder of dividing by 2 is the next digit
        resto = numeral % 2
        # put it at the front so the list ends up in the right order
        algarismos.insert(0, resto)
        # divide the number by 2 (integer division)
        numeral = numeral // 2
    # return the list of digits
    return algarismos


def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    # the result starts at zero
    valor = 0
    # the number of digits in the list
    comprimento = len(binary)
    uns = 0
    # go through every position in the list
    for pos in range(comprimento):
        # the first digit has the biggest power of 2
        expoente = comprimento - 1 - pos
        if binary[pos] == 1:
            uns = uns + 1
        # add the digit times 2 to the power of its position
        valor = valor + binary[pos] * 2 ** expoente
    # return the number
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
