# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    digs=[]
    n=numeral
    for _ in range(numeral.bit_length()):
        digs=[n%2]+digs
        n=n//2
    return digs


def binary_numeral(binary):
    total=0
    weight=1
    j=len(binary)-1
    while j>=0:
        total=total+binary[j]*weight
        weight=weight*2
        j=j-1
    return total


def bitwise_exclusive_or(a, b):
    """Return the bitwise exclusive or of the whole numbers a and b (0 or more)."""
    bits_a=numeral_binary(a)
    bits_b=numeral_binary(b)
    for _ in range(len(bits_b)-len(bits_a)):
        bits_a=[0]+bits_a  # zeros a esquerda
    for _ in range(len(bits_a)-len(bits_b)):
        bits_b=[0]+bits_b
    out=[]
    j=0
    while j<len(bits_a):
        if bits_a[j]!=bits_b[j]:
            out.append(1)
        else:
            out.append(0)
        j=j+1
    return binary_numeral(out)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
