# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""

from __future__ import print_function, division
import sys



def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""

    # Start with an empty list: this is also the answer for 0.
    digits=[]

    # Keep dividing by two until nothing is left.
    while numeral>0:
        # The remainder is the lowest digit still missing.
        remainder=numeral%2
        digits.append(remainder)
        # print(remainder)

        # Move on to the next digit.
        numeral=numeral//2
        sys.stderr.write("numeral now: %d\n" % numeral)

    # The digits came out least significant first, so reverse them.
    sys.stderr.write("digits: %s\n" % digits)
    return digits[::-1]



def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""

    # The running total of the digits read so far.
    total=0

    # Read the digits left to right (most significant first).
    for digit in binary:
        # Every new digit doubles what we had and adds itself.
        total=2*total+digit
        #print("total", total)

    sys.stderr.write("total = %d\n" % total)
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
