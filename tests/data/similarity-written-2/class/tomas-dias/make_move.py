# -*- coding: utf-8 -*-
from __future__ import print_function, division


def make_move(board,row,elements):
    b=list(board)
    if 0<row<=len(b) and 0<elements<=b[row-1]:
        b[row-1]-=elements
        return b,True
    return b,False


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
