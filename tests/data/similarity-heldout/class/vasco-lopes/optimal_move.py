# -*- coding: utf-8 -*-
"""Exercise 7, optimal_move: the computer's perfect move.

Read the statement with `nimlab show optimal_move`, then check your work with
`nimlab check optimal_move.py`.
"""
from __future__ import print_function, division

import random

def soma_nim(board):
  x = 0
  # aqui faz o calculo
  for n in board:
    x = x ^ n
  # resultado
  return x


def optimal_move(board):
  """Return a move (row, elements), row counted from 1, for a non-empty board.

  When the nim-sum is not 0, the move must leave nim-sum 0. Otherwise any legal move will do.
  """
  soma = soma_nim(board)
  if soma > 0:
    for k in range(len(board)):
      t = board[k] ^ soma
      if t < board[k]:
        return (k+1, board[k]-t)
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
