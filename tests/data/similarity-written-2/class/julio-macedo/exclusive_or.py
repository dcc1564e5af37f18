# -*- coding: utf-8 -*-
"""Exercise 3, exclusive_or: the XOR of two bits, built from if statements.

Read the statement with `nimlab show exclusive_or`, then check your work with
`nimlab check exclusive_or.py`.
"""
from __future__ import print_function, division


def exclusive_or(a, b):
    """Return 1 if exactly one of the bits a and b is 1, otherwise 0."""
    # O XOR dá 1 quando um dos bits é 1 e o outro é 0.
    # Caso 1: a é 1 e b é 0  ->  (a and not b)
    # Caso 2: a é 0 e b é 1  ->  (not a and b)
    if (a and not b) or (not a and b):
        # Aconteceu um dos dois casos, por isso devolvemos 1
        return 1
    else:
        # Os bits são iguais (0 e 0, ou 1 e 1), por isso devolvemos 0
        return 0


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(exclusive_or(a, b))
