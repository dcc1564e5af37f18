# -*- coding: utf-8 -*-
from __future__ import print_function, division


def exclusive_or(a,b):
    # first make sure the inputs really are bits (0 or 1)
    if a not in (0,1) or b not in (0,1):
        raise ValueError("a and b must be bits (0 or 1)")
    # if a is set, the answer is 1 only when b is NOT set
    if a:
        if not b:
            return 1
        return 0
    # a is not set, so the answer is 1 only when b is set
    if b:
        return 1
    # neither bit is set
    return 0


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(exclusive_or(a, b))
