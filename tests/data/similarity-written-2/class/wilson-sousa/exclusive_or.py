# -*- coding: utf-8 -*-

from __future__ import print_function, division



def exclusive_or(a, b):

    # is the first bit on?
    if a > 0:
        # second one on too: the bits match, so 0
        if b >= 1:
            out_bit = 0
        # only the first one is on
        else:
            out_bit = 1

    # first bit off: the answer follows the second bit
    else:
        if b >= 1:
            out_bit = 1
        else:
            out_bit = 0

    return int(out_bit)



# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(exclusive_or(a, b))
