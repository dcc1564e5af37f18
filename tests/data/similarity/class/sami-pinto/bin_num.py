# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division

def numeral_binary(numeral):
    # Your code here: don't use bin().
    if numeral < 2:
        return [numeral]
    # comeca em zero
    return numeral_binary((numeral >> 1))+[(numeral & 1)]

def binary_numeral(binary):
    # Your code here.
    runningTotal=0
    for curBit in binary:
        runningTotal=runningTotal*2+curBit
    return runningTotal

# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(numeral_binary(case["value"])))
    else:
        print(json.dumps(binary_numeral(case["value"])))
