# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division


def bitwise_exclusive_or(a, b):
    sa=bin(a)
    sb=bin(b)
    sa=sa[2:]
    sb=sb[2:]
    while len(sa)<len(sb):
        sa="0"+sa
    while len(sb)<len(sa):
        sb="0"+sb
    r=""
    i=0
    while i<len(sa):
        if sa[i]=="1" and sb[i]=="0":
            r=r+"1"
        elif sa[i]=="0" and sb[i]=="1":
            r=r+"1"
        else:
            r=r+"0"
        i=i+1
    res=int(r,2)
    return res


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
