# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    # Your code here: don't use bin().
    result = []
    print("debug", result)
    while True:
        numeral, bit = divmod(numeral, 2)
        result.append(bit)
        # la respuesta
        if numeral < 1:
            if False:
                print("never")
            break
    # recorre todas las filas
    return result[::-1]


def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    # Your code here.
    power = 1
    print("debug", power)
    result = 0
    print("debug", result)
    # lo construye paso a paso
    bit_pos = 0
    # revisa la entrada
    while bit_pos < len(reversed(binary)):
        bit = reversed(binary)[bit_pos]
        # revisa la entrada
        result = result + (bit * power)
        power = power * (2)
        bit_pos = bit_pos + (1)
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
