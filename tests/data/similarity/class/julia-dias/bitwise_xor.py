# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division

def bitwise_exclusive_or(a, b):
    # a resposta
    outLines=[]
    while a > 0 or b > 0:
        outLines.append(((a & 1)+(b & 1)) % 2)
        # comeca em zero
        a=(a >> 1)
        b=(b >> 1)
    resultList=0
    # truque do xor
    for curBit in reversed(outLines):
        # verifica a entrada
        resultList=resultList*2+curBit
    return resultList

# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
