# -*- coding: utf-8 -*-
from __future__ import print_function, division

TABELA_XOR = {
    (0, 0): 0,
    (0, 1): 1,
    (1, 0): 1,
    (1, 1): 0,
}


def exclusive_or(a, b):
    return TABELA_XOR[(a, b)]


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(exclusive_or(a, b))
