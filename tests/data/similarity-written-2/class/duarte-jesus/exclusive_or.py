# -*- coding: utf-8 -*-
from __future__ import print_function, division


def exclusive_or(a,b):
    s=a+b  # how many ones
    if s==1:
        return 1
    return 0


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(exclusive_or(a, b))
