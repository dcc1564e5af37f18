# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    # Your code here: don't use bin().

    # format(..., "b") writes the number in base 2 as a string, e.g. "110"
    # (this isn't bin(), which would also add the "0b" prefix)
    if numeral == 0:
        # format gives "0" for zero but the statement wants no digits at all
        return []

    # turn each character back into an int digit
    return [int(c) for c in format(numeral, "b")]



def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    # Your code here.

    # join the digits into a string like "110"
    text = "".join(str(d) for d in binary)

    # int() with base 2 reads it back; an empty list gives "" so use "0" instead
    return int(text or "0", 2)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(numeral_binary(case["value"])))
    else:
        print(json.dumps(binary_numeral(case["value"])))
