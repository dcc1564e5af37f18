# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    algs=[]
    num=numeral
    while num>0:
        algs=[num%2]+algs
        num=num//2
    return algs


def binary_numeral(binary):
    soma=0
    pot=1
    for k in range(len(binary)-1,-1,-1):
        soma=soma+binary[k]*pot
        pot=pot*2
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
