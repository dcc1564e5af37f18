# -*- coding: utf-8 -*-
from __future__ import print_function, division


def bitwise_exclusive_or(a, b):
    result = 0
    place = 1
    while a > 0 and b > 0:
        if a % 2 + b % 2 == 1:
            result += place
        a //= 2
        b //= 2
        place *= 2
    return result


if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
