# -*- coding: utf-8 -*-
from __future__ import print_function, division

import random


def to_binary(n):
    bits = []
    while n > 0:
        bits.append(n % 2)
        n = n // 2

    bits.reverse()
    return bits


def to_number(bits):
    n = 0
    for b in bits:
        n = n * 2 + b
    return n



def xor_numbers(a, b):

    bits_a = to_binary(a)
    bits_b = to_binary(b)

    while len(bits_a) < len(bits_b):
        bits_a.insert(0, 0)
    while len(bits_b) < len(bits_a):
        bits_b.insert(0, 0)

    result = []
    for i in range(len(bits_a)):
        if bits_a[i] != bits_b[i]:
            result.append(1)
        else:
            result.append(0)

    return to_number(result)



def optimal_move(board):

    nim = 0
    for row in board:
        nim = xor_numbers(nim, row)

    if nim != 0:

        for i in range(len(board)):
            new_size = xor_numbers(nim, board[i])

            if new_size < board[i]:
                return (i + 1, board[i] - new_size)


    rows = []
    for i in range(len(board)):
        if board[i] > 0:
            rows.append(i)

    row = random.choice(rows)
    return (row + 1, random.randint(1, board[row]))



# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
