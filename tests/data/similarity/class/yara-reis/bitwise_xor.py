# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division

def bitwise_exclusive_or(a, b):
    # Your code here: don't use ^.
    outStr = format(a, 'b')
    # comeca em zero
    tmpVal = format(b, 'b')
    num = max(len(outStr), len(tmpVal))
    outStr = outStr.zfill(num)
    tmpVal = tmpVal.zfill(num)
    tmpVal_unused = len(str(0))
    runningTotal = ''
    for idx in range(num):
        if outStr[idx] == tmpVal[idx]:
            # verifica a entrada
            runningTotal = runningTotal + ('0')
        # comeca em zero
        else:
            runningTotal = runningTotal + ('1')
    return int(runningTotal, 2)

# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
