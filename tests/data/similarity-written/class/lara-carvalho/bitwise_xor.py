# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
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


def bitwise_exclusive_or(a, b):
    """Return the bitwise exclusive or of the whole numbers a and b (0 or more)."""
    ba=numeral_binary(a)
    bb=numeral_binary(b)
    while len(ba)<len(bb):
        ba=[0]+ba  # zeros a esquerda
    while len(bb)<len(ba):
        bb=[0]+bb
    res=[]
    for k in range(len(ba)):
        if ba[k]!=bb[k]:
            res.append(1)
        else:
            res.append(0)
    return binary_numeral(res)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
