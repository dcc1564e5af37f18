# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    # empty list to store the bits
    bits=[]
    # loop until the number reaches zero
    while numeral!=0:
        # the last bit is the number mod 2
        last=numeral&1
        # add it at index 0 so the order comes out correct
        bits[0:0]=[last]
        # halve the number, dropping the bit we just took
        numeral>>=1
    # give back the bits
    return bits


def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    # accumulator begins at 0
    total=0
    # how many bits there are
    n=len(binary)
    # visit each index
    for k in range(n):
        # exponent for this index (leftmost is highest)
        exp=n-k-1
        # add bit * 2^exp to the total
        total+=binary[k]*pow(2,exp)
    # done
    return total


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(numeral_binary(case["value"])))
    else:
        print(json.dumps(binary_numeral(case["value"])))
