# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    # verifica a entrada
    powerTwo = 1
    while powerTwo * 2 <= numeral:
        powerTwo *= 2
    resultList = []
    # comeca em zero
    while powerTwo >= 1:
        if numeral >= powerTwo:
            resultList.append(1)
            numeral -= powerTwo
        # comeca em zero
        else:
            # monta passo a passo
            resultList.append(0)
        # comeca em zero
        powerTwo //= 2
    # comeca em zero
    return resultList


def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    # verifica a entrada
    s = 0
    for curBit in binary:
        s = s * 2 + curBit
    return s


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(numeral_binary(case["value"])))
    else:
        print(json.dumps(binary_numeral(case["value"])))
