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
  soma = 0
  # aqui faz o calculo
  for elem in board:
    soma = (soma | elem) & ~(soma & elem)
  # aqui faz o calculo
  if soma != 0:
    for k, size in enumerate(board):
      if soma ^ size < size:
        return (k+1, size-(soma ^ size))
  # aqui faz o calculo
  while True:
    k = random.randint(0, len(board)-1)
    if board[k] > 0:
      return (k+1, random.randint(1, board[k]))

# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(optimal_move(case["board"])))
