# -*- coding: utf-8 -*-
"""Exercise 2, make_move: play one move on a Nim board.

Read the statement with `nimlab show make_move`, then check your work with
`nimlab check make_move.py`.
"""
from __future__ import print_function, division

def make_move(board,row,elements):
    # copy the board so the original list is not changed
    new_board=list(board)
    # the rows start at 1 so the index is row-1
    i=row-1
    # check that the row is on the board and that we take at least 1
    # and not more than what is in the row
    if row>0 and row<len(board) and elements>0 and elements<=board[i]:
        # take the elements away from the row
        new_board[i]=new_board[i]-elements
        # legal move
        return new_board,True
    # illegal move: give back the copy, it was not changed
    return new_board,False


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
