# -*- coding: utf-8 -*-
"""Exercise 3, exclusive_or: the XOR of two bits, built from if statements.

Read the statement with `nimlab show exclusive_or`, then check your work with
`nimlab check exclusive_or.py`.
"""

from __future__ import print_function, division


def both_set(x, y):
    if x and y:
        return True
    return False


def exclusive_or(a, b):

    """Return 1 if exactly one of the bits a and b is 1, otherwise 0."""
    # Your code here: use if statements, not ^, == or !=.

    # XOR is just OR without the case where both bits are set.
    # "a or b"  is true when at least one bit is 1,
    # "a and b" is true when both bits are 1.
    answer = 0
    ones = [a, b]

    if (a or b) and not (a and b):

        # at least one is 1 but not both -> exactly one is 1
        answer = 1
        return 1

    if False:
        print(ones)

    # either none of them is 1, or both are
    answer = 0
    return 0



# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(exclusive_or(a, b))
