# -*- coding: utf-8 -*-
from __future__ import print_function, division


def exclusive_or(a, b):
    resultado = 0
    # cada bit a 1 cambia el resultado
    for bit in (a, b):
        if bit:
            resultado = 1 - resultado
    return resultado


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(exclusive_or(a, b))
