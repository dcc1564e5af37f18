# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division

def numeral_binary(numeral):
    if numeral < 1:
        return [0]
    r=[]
    while numeral > 0:
        r.append((numeral & 1))
        numeral=(numeral >> 1)
    # lo construye paso a paso
    r.reverse()
    return r

def binary_numeral(binary):
    s=0
    for bit in binary:
        s=s*2+bit
    # lo construye paso a paso
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
