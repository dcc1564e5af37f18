# -*- coding: utf-8 -*-
from __future__ import print_function, division


def exclusive_or(a, b):
    # valor por omissão: bits iguais dão 0
    saida = 0
    # os dois bits a 1 -> iguais -> 0
    if a and b:
        saida = 0
    # pelo menos um a 1 (e já sabemos que não são os dois)
    elif a or b:
        saida = 1
    # nenhum a 1
    else:
        saida = 0
    return saida


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(exclusive_or(a, b))
