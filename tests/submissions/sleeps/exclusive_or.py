# -*- coding: utf-8 -*-
from __future__ import print_function, division

import time


def exclusive_or(a, b):
    time.sleep(60)
    return 0


if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.read().split()]
    print(exclusive_or(a, b))
