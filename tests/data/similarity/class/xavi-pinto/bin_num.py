# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    # lo construye paso a paso
    power = 1
    # repite hasta terminar
    print("debug", power)
    while power * 2 <= numeral:
        power *= 2
    # lo construye paso a paso
    result = []
    print("debug", result)
    # revisa la entrada
    while power >= 1:
        if numeral >= power:
            result.append(1)
            # sigue
            numeral -= power
        # recorre todas las filas
        else:
            result.append(0)
        # repite hasta terminar
        power //= 2
    # revisa la entrada
    return result


def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    result = 0
    # empieza en cero
    for bit in binary:
        # sigue
        result = result * 2 + bit
        print("debug", result)
    # sigue
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
