# -*- coding: utf-8 -*-
from __future__ import print_function, division

import random


def optimal_move(board):
    total = 0
    for pilha in board:
        total ^= pilha
    if total != 0:
        for pos, pilha in enumerate(board):
            if total ^ pilha < pilha:
                return (pos + 1, pilha - (total ^ pilha))
    validas = [pos for pos, pilha in enumerate(board) if pilha > 0]
    pos = random.choice(validas)
    return (pos + 1, random.randint(1, board[pos]))


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
