# -*- coding: utf-8 -*-
from __future__ import print_function, division

import random
from functools import reduce
from operator import xor


def optimal_move(board):
    # soma nim: xor de todas as linhas (reduce com valor inicial 0)
    s=reduce(xor,board,0)
    # todas as jogadas que deixam a soma nim a 0: a linha tem de ficar com s^n elementos
    vencedoras=[(i+1,n-(s^n)) for i,n in enumerate(board) if s^n<n]
    # se houver alguma, escolho uma ao calhas
    if vencedoras:
        return random.choice(vencedoras)
    # senao qualquer jogada legal serve: linha nao vazia, tirar entre 1 e n
    i=random.choice([i for i,n in enumerate(board) if n])
    return (i+1,random.randint(1,board[i]))


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
