# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    # caso base: o zero nao tem digitos
    if numeral==0:
        return []
    # os digitos de numeral//2 seguidos do ultimo digito (numeral%2)
    return numeral_binary(numeral//2)+[numeral%2]


def binary_numeral(binary):
    # caso base: a lista vazia vale 0
    if not binary:
        return 0
    # o valor da lista sem o ultimo digito vezes 2, mais o ultimo digito
    return binary_numeral(binary[:-1])*2+binary[-1]


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(numeral_binary(case["value"])))
    else:
        print(json.dumps(binary_numeral(case["value"])))
