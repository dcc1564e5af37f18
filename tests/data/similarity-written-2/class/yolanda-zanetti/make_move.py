# -*- coding: utf-8 -*-
"""Exercise 2, make_move: play one move on a Nim board.

Read the statement with `nimlab show make_move`, then check your work with
`nimlab check make_move.py`.
"""
from __future__ import print_function, division


def make_move(board, row, elements):
    # Never modify the caller's list: the game loop still needs the old
    # board, e.g. to display it again after an illegal move.
    new_board = list(board)

    # Rows are 1-based for the player; reject anything outside 1..len(board)
    # before indexing (Python would happily accept board[-1]).
    if not 1 <= row <= len(board):
        return new_board, False

    # A move takes at least one element and at most the whole row.
    if not 1 <= elements <= board[row - 1]:
        return new_board, False

    # Legal move: apply it on the copy only.
    new_board[row - 1] -= elements
    return new_board, True


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    board = case["board"]
    board_before = list(board)
    result = make_move(board, case["row"], case["elements"])
    assert board == board_before, "make_move changed the board it was given: change a copy instead"
    print(json.dumps(result))
