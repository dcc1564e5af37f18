# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division




def bitwise_exclusive_or(a,b):

    resultado=0

    peso=1

    # vai bit a bit ate os dois serem zero
    while a>0 or b>0:

        if a%2+b%2==1:   # so um dos bits e 1
            resultado+=peso

        a=a//2
        b=b//2

        peso=peso*2


    return resultado


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
