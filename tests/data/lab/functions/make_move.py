from __future__ import division, print_function


def make_move(board, row, elements):
    after = list(board)
    if 1 <= row <= len(board) and 0 < elements <= board[row - 1]:
        after[row - 1] = board[row - 1] - elements
        return after, True
    return after, False
