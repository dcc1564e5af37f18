# -*- coding: utf-8 -*-
"""Exercise 2, make_move: play one move on a Nim board.

Read the statement with `nimlab show make_move`, then check your work with
`nimlab check make_move.py`.
"""
from __future__ import print_function, division



def make_move(board, row, elements):
    """Take `elements` elements from row `row` (counted from 1).

    Return (new_board, True) for a legal move, or (an unchanged copy of board, False) for an
    illegal one. Never change `board` itself.
    """

    # how many rows the board has
    total_rows=len(board)

    # build a copy of the board, one row at a time
    result=[]
    k=0
    while total_rows>k:
        result+=[board[k]]
        k+=1


    # is the row number on the board?
    row_ok=False
    if 1<=row:
        if len(board)>=row:
            row_ok=True


    if not row_ok:
        return result,False


    # are there enough elements to take?
    pos=row-1
    available=board[pos]

    if 1<=elements and available>=elements:
        result[pos]=available-elements
        return result,True
    else:
        return result,False



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
