# -*- coding: utf-8 -*-
from __future__ import print_function, division


def nim_sum(board):
    total = 0
    for size in board:
        total += size
    return total



def is_n_position(board):
    return nim_sum(board) == 0


def is_p_position(board):
    return nim_sum(board) != 0


if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    answer = {
        "nim_sum": nim_sum,
        "is_n_position": is_n_position,
        "is_p_position": is_p_position,
    }[case["type"]](case["input"])
    print(json.dumps(answer))
