from __future__ import division, print_function


def exclusive_or(a, b):
    if a == 1 and b == 0:
        return 1
    if a == 0 and b == 1:
        return 1
    return 0
