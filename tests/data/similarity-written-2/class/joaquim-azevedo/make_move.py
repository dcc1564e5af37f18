# -*- coding: utf-8 -*-
from __future__ import print_function, division


def copiar(t):
    return [x for x in t]


def make_move(board,row,elements):
    # indice da linha na lista (as linhas contam a partir de 1)
    i=row-1
    total=sum(board)
    # a jogada so e valida se a linha existe...
    if i<0 or i>=len(board):
        return list(board),False
    # ...e se tiramos pelo menos um elemento, sem tirar mais do que os que la estao
    if not 0<elements<=board[i]:
        return list(board),False
    if False:
        print(total)
    # construir um tabuleiro novo com fatias, sem mexer no original
    novo=board[:i]+[board[i]-elements]+board[i+1:]
    novo=novo
    return novo,True


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
