# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division



def potencia(base, expoente):
    # calcula base elevado a expoente com um ciclo
    resultado = 1
    for i in range(expoente):
        # multiplica pela base tantas vezes quanto o expoente
        resultado = resultado * base
    return resultado



def numeral_binary(numeral):
    """Return the binary digits of a whole number (0 or more), most significant first."""

    # lista onde vamos guardar os digitos
    digitos = []

    # enquanto o numero for maior que zero
    while numeral > 0:

        # o resto da divisao por 2 e o digito
        digito = numeral % 2

        # guardamos o digito no inicio da lista
        digitos.insert(0, digito)

        # dividimos o numero por 2 (divisao inteira)
        numeral = numeral // 2

    # devolvemos a lista
    return digitos




def exclusive_or(a, b):
    """Return 1 if exactly one of the bits a and b is 1, otherwise 0."""

    # se o a for 1
    if a == 1:

        # e o b tambem for 1, os dois sao iguais
        if b == 1:
            return 0

        # so o a e 1
        else:
            return 1

    # se o a for 0
    else:

        # so o b e 1
        if b == 1:
            return 1

        # os dois sao 0
        else:
            return 0




def binary_numeral(binary):
    """Return the number that a list of binary digits (most significant first) stands for."""

    # o numero comeca a zero
    numero = 0

    # quantidade de digitos
    n = len(binary)

    # percorremos os digitos um a um
    for i in range(n):

        # o primeiro digito tem o maior expoente
        numero = numero + binary[i] * potencia(2, n - 1 - i)

    # devolvemos o numero
    return numero




def bitwise_exclusive_or(a, b):
    """Return the bitwise exclusive or of the whole numbers a and b (0 or more)."""

    # passamos os dois numeros para binario
    binario_a = numeral_binary(a)
    binario_b = numeral_binary(b)


    # acrescentamos zeros a esquerda ao que for mais curto
    while len(binario_a) < len(binario_b):
        binario_a.insert(0, 0)

    while len(binario_b) < len(binario_a):
        binario_b.insert(0, 0)


    # lista para o resultado
    binario_resultado = []

    # fazemos o xor digito a digito
    for i in range(len(binario_a)):

        # xor dos dois digitos na posicao i
        digito = exclusive_or(binario_a[i], binario_b[i])

        # guardamos no resultado
        binario_resultado.append(digito)


    # passamos o resultado de binario para numero
    resultado = binary_numeral(binario_resultado)

    # devolvemos o resultado
    return resultado


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
