# -*- coding: utf-8 -*-
"""Exercise 1, present_board: show a Nim board as text.

Read the statement with `nimlab show present_board`, then check your work with
`nimlab check present_board.py`.
"""
from __future__ import print_function, division



def present_board(board):
    """Return `board` (a list of row sizes) as text: a `Nim:` line, then one line per row."""

    # lista para guardar as linhas do tabuleiro
    linhas = []

    # a primeira linha é sempre o título
    linhas.append("Nim:")


    # percorrer todas as filas com o seu número (começa em 1)
    numero = 1
    for quantidade in board:

        # fazer uma lista com um "X" para cada elemento
        lista_x = ["X"] * quantidade

        # juntar os X com espaços, ex: "X X X"
        xs = " ".join(lista_x)

        # se a fila estiver vazia fica só o número e os dois pontos
        if quantidade == 0:
            linha = str(numero) + ":"
        else:
            linha = str(numero) + ": " + xs

        linhas.append(linha)

        # passar para a próxima fila
        numero = numero + 1



    # juntar tudo com mudanças de linha
    return "\n".join(linhas)



# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    print(present_board([int(word) for word in sys.stdin.readline().split()]))
