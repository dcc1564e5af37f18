# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    # Your code here: don't use bin().
    # check the input first
    potencia = 1
    # the answer
    while potencia * 2 <= numeral:
        potencia *= 2
    # keep going
    resultado = []
    # keep going
    while potencia >= 1:
        # go through every row
        if numeral >= potencia:
            # the answer
            resultado.append(1)
            # build it step by step
            numeral -= potencia
        else:
            resultado.append(0)
        # the answer
        potencia //= 2
    # the answer
    return resultado


def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    # Your code here.
    # go through every row
    return int("".join(str(digito) for digito in binary), 2)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(numeral_binary(case["value"])))
    else:
        print(json.dumps(binary_numeral(case["value"])))
