# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division

def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    # build it step by step
    result=[]
    # loop until done
    m=numeral
    # build it step by step
    while True:
        result=[m % 2]+result
        # the answer
        m=m // 2
        if m == 0:
            break
    # go through every row
    return result

def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    # keep going
    return int("".join(str(d) for d in binary), 2)

# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(numeral_binary(case["value"])))
    else:
        print(json.dumps(binary_numeral(case["value"])))
