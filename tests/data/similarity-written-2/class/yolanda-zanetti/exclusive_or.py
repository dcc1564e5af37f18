# -*- coding: utf-8 -*-
from __future__ import print_function, division


def exclusive_or(a, b):
    # XOR is 1 exactly when the two bits differ.
    # We split on the first bit:
    #   - if a is 1, the answer is the negation of b;
    #   - if a is 0, the answer is b itself.
    if a:
        # 1 XOR 1 = 0, 1 XOR 0 = 1
        if b:
            return 0
        return 1
    # 0 XOR 1 = 1, 0 XOR 0 = 0
    if b:
        return 1
    return 0


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(exclusive_or(a, b))
