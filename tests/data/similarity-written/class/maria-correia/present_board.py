# -*- coding: utf-8 -*-
"""Exercise 1, present_board: show a Nim board as text.

Read the statement with `nimlab show present_board`, then check your work with
`nimlab check present_board.py`.
"""
from __future__ import print_function, division



def present_board(board):
    """Return `board` (a list of row sizes) as text: a `Nim:` line, then one line per row."""
    # Your code here: build the lines, then return them joined with "\n".

    resultado = "Nim:"

    contador = 1

    # percorrer as linhas do tabuleiro
    for linha in board:

        texto_linha = str(contador) + ":"

        if linha == 0:
            texto_linha = texto_linha
        else:
            x = 0
            while x < linha:
                texto_linha = texto_linha + " X"
                x = x + 1

        resultado = resultado + "\n"
        resultado = resultado + texto_linha

        contador = contador + 1


    return resultado



# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    print(present_board([int(word) for word in sys.stdin.readline().split()]))
