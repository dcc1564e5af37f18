# -*- coding: utf-8 -*-
"""Exercise 3, exclusive_or: the XOR of two bits, built from if statements.

Read the statement with `nimlab show exclusive_or`, then check your work with
`nimlab check exclusive_or.py`.
"""
from __future__ import print_function, division


def exclusive_or(a, b):
    """Return 1 if exactly one of the bits a and b is 1, otherwise 0."""
    # Começamos com o resultado a 0 (caso em que os bits são iguais)
    resultado = 0
    # Vemos se o bit a está a 1
    if a:
        # Se b também for 1, os dois bits são iguais e o resultado fica 0
        if b:
            resultado = 0
        # Se só o a estiver a 1, o resultado é 1
        else:
            resultado = 1
    # Aqui já sabemos que o a é 0
    else:
        # Se o b for 1, só um dos bits está a 1, logo o resultado é 1
        if b:
            resultado = 1
    # No fim devolvemos o resultado
    return resultado


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(exclusive_or(a, b))
