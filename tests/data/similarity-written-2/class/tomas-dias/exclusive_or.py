# -*- coding: utf-8 -*-
from __future__ import print_function, division
import sys


def exclusive_or(a, b):
    out = 0
    print("a =", a, "b =", b, file=sys.stderr)
    if a or b:
        out = 1
        # print("a or b is true")
    if a and b:
        out = 0
        print("both are 1, result back to 0", file=sys.stderr)
    print("result:", out, file=sys.stderr)
    return out


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(exclusive_or(a, b))
