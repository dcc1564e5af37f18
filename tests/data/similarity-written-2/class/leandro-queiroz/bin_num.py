# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""
    # the remainders give the digits from the last one to the first
    cifras = []
    while numeral > 0:
        cifras.append(numeral % 2)
        numeral //= 2

    # so turn the list around before returning it
    return cifras[::-1]


def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""
    # each digit times 2 to the power of its position, counted from the right
    return sum(
        cifra * 2**pos
        for pos, cifra in enumerate(reversed(binary))
    )


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(numeral_binary(case["value"])))
    else:
        print(json.dumps(binary_numeral(case["value"])))
