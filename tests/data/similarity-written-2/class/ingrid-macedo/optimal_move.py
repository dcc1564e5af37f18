# -*- coding: utf-8 -*-
"""Exercise 7, optimal_move: the computer's perfect move.

Read the statement with `nimlab show optimal_move`, then check your work with
`nimlab check optimal_move.py`.
"""
from __future__ import print_function, division

import random


def optimal_move(board):
    soma=0
    for x in board:
        soma=soma^x
    if soma!=0:
        for i in range(len(board)):
            if soma^board[i]<board[i]:
                return (i+1,board[i]-(soma^board[i]))
    linhas=[i for i in range(len(board)) if board[i]>0]
    l=random.choice(linhas)
    return (l+1,random.randint(1,board[l]))


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
