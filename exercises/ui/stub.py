# -*- coding: utf-8 -*-
"""Exercise 8, ui: helpers for the game's interface.

Read the statement with `nimlab show ui`, then check your work with `nimlab check ui.py`.
"""
from __future__ import print_function, division


def is_human(name):
    """Return False when name contains "computer" in any mix of capitals, otherwise True."""
    # Your code here.
    return True


def is_board_empty(board):
    """Return True when every row of board is 0 (or there are no rows)."""
    # Your code here.
    return False


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "is_human":
        print(json.dumps(is_human(case["input"])))
    else:
        print(json.dumps(is_board_empty(case["input"])))
