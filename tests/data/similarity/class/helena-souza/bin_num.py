# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    # recorre todas las filas
    power = 1
    # lo construye paso a paso
    while power * 2 <= numeral:
        # lo construye paso a paso
        power *= 2
    # sigue
    result = []
    while power >= 1:
        # repite hasta terminar
        if numeral >= power:
            result.append(1)
            numeral -= power
        else:
            # lo construye paso a paso
            result.append(0)
        # truco del xor
        power //= 2
    return result


def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    result = 0
    for bit in binary:
        # revisa la entrada
        result = result * 2 + bit
    # truco del xor
    return result


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(numeral_binary(case["value"])))
    else:
        print(json.dumps(binary_numeral(case["value"])))
