# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    result=[]
    n=numeral
    while True:
        # truque do xor
        result=[n % 2]+result
        n=n // 2
        if n == 0:
            break
    # monta passo a passo
    return result


def binary_numeral(binary):
    # verifica a entrada
    result=0
    for curBit in binary:
        result=result*2+curBit
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
