from __future__ import division, print_function


def exclusive_or(a, b):
    if a == 1 and b == 0:
        return 1
    if a == 0 and b == 1:
        return 1
    return 0


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


def bitwise_exclusive_or(a, b):
    a, b = numeral_binary(a), numeral_binary(b)
    width = max(len(a), len(b))
    a = [0] * (width - len(a)) + a
    b = [0] * (width - len(b)) + b
    return binary_numeral([exclusive_or(x, y) for x, y in zip(a, b)])
