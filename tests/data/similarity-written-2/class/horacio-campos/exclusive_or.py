# -*- coding: utf-8 -*-
from __future__ import print_function, division


def exclusive_or(a, b):
    saida = 0
    valores = (a, b)
    # cada bit a 1 cambia el resultado
    k = 0
    while k < len(valores):
        if valores[k]:
            saida = 1 - saida
        k += 1
    return saida


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(exclusive_or(a, b))
