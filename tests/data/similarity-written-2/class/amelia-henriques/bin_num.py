# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division
import sys



def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""

    # Collect the digits least significant first: numeral % 2 is the
    # last digit, and numeral // 2 drops it.
    digits = [ ]

    while numeral>0:
        digits.append( numeral%2 )
        numeral//=2
        #print(numeral, digits)

    # Zero never enters the loop, so it correctly gives [].
    # Reverse to get the most significant digit first.
    sys.stderr.write("digits: %s\n" % digits)
    return digits[ : : -1]



def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""

    # Walk the digits from the right: the digit at position k (counting
    # from 0 at the right end) is worth 2**k, i.e. 1 << k.
    # sum() of an empty sequence is 0, which covers the empty list.
    print('binary =', binary, file=sys.stderr)
    return sum( digit<<k for k,digit in enumerate( reversed(binary) ) )


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(numeral_binary(case["value"])))
    else:
        print(json.dumps(binary_numeral(case["value"])))
