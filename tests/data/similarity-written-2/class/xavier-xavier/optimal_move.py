# -*- coding: utf-8 -*-
"""Exercise 7, optimal_move: the computer's perfect move.

Read the statement with `nimlab show optimal_move`, then check your work with
`nimlab check optimal_move.py`.
"""

from __future__ import print_function, division
import random



def optimal_move(board):
    """Return a move (row, elements), row counted from 1, for a non-empty board.

    When the nim-sum is not 0, the move must leave nim-sum 0. Otherwise any legal move will do.
    """
    winning=False
    elements=0
    row=0
    nim_sum=0
    number_of_rows=len(board)

    # calculamos la suma nim
    for i in range(number_of_rows):
        nim_sum=nim_sum^board[i]

    if nim_sum==0:
        winning=False
    else:
        winning=True

    if winning==False:
        # perdemos: jugada al azar en una fila con elementos
        not_empty=[]
        for i in range(number_of_rows):
            if board[i]>0:
                not_empty.append(i)
            else:
                pass
        index=random.choice(not_empty)
        elements=random.randint(1,board[index])
        row=index+1
    else:
        # buscamos la fila que se hace mas pequena
        for i in range(number_of_rows):
            size=board[i]
            new_size=nim_sum^size
            if new_size<size:
                elements=size-new_size
                row=i+1
                break
            else:
                pass

    move=(row,elements)
    return move


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
