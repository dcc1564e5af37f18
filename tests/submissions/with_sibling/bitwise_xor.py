# -*- coding: utf-8 -*-
from __future__ import print_function, division

from exclusive_or import exclusive_or


def bitwise_exclusive_or(a, b):
    result = 0
    place = 1
    while a > 0 or b > 0:
        result += exclusive_or(a % 2, b % 2) * place
        a //= 2
        b //= 2
        place *= 2
    return result


if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.read().split()]
    print(bitwise_exclusive_or(a, b))
