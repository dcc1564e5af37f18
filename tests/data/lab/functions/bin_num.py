from __future__ import division, print_function


def numeral_binary(numeral):
    binary = []
    while numeral > 0:
        binary.insert(0, numeral % 2)
        numeral = numeral // 2
    return binary


def binary_numeral(binary):
    numeral = 0
    for digit in binary:
        numeral = 2 * numeral + digit
    return numeral
