# -*- coding: utf-8 -*-
from __future__ import print_function, division

import random


def optimal_move(board):
    x=0
    for r in board:
        x^=r
    if x==0:
        return random.choice([(i+1,1) for i,r in enumerate(board) if r])
    b=len(bin(x))-3
    for i,r in enumerate(board):
        if r>>b&1:
            return (i+1,r-(r^x))


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
