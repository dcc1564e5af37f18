# -*- coding: utf-8 -*-
"""Model solution for exercise 8, ui."""
from __future__ import print_function, division


def is_human(name):
    """Return False when name contains "computer" in any mix of capitals, otherwise True."""
    return "computer" not in name.lower()


def is_board_empty(board):
    """Return True when every row of board is 0 (or there are no rows)."""
    for size in board:
        if size != 0:
            return False
    return True


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "is_human":
        print(json.dumps(is_human(case["input"])))
    else:
        print(json.dumps(is_board_empty(case["input"])))
