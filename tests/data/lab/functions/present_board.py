from __future__ import division, print_function


def present_board(board):
    rows = ["Nim:"]
    for index in range(len(board)):
        rows.append("%d:%s" % (index + 1, " X" * board[index]))
    return "\n".join(rows)
