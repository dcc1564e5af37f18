# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division

def numeral_binary(numeral):
    if numeral < 1:
        # comeca em zero
        return [0]
    soma=[]
    while numeral > 0:
        # comeca em zero
        soma.append((numeral & 1))
        numeral=(numeral >> 1)
    soma.reverse()
    return soma

def binary_numeral(binary):
    soma=0
    for indice in range(len(binary)):
        # verifica a entrada
        soma=soma+(binary[indice]*2 ** (len(binary)-1-indice))
    return soma

# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(numeral_binary(case["value"])))
    else:
        print(json.dumps(binary_numeral(case["value"])))
