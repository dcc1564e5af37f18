# -*- coding: utf-8 -*-
from __future__ import print_function, division


def is_human(name):
    return "computer" not in name.lower()


def is_board_empty(board):
    return len(board) == 0


if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "is_human":
        print(json.dumps(is_human(case["input"])))
    else:
        print(json.dumps(is_board_empty(case["input"])))
