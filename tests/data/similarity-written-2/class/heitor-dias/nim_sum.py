# -*- coding: utf-8 -*-
"""Exercise 6, nim_sum: the nim-sum of a board, and who is winning.

Read the statement with `nimlab show nim_sum`, then check your work with
`nimlab check nim_sum.py`.
"""

from __future__ import print_function, division



def nim_sum(board):

    # Do the XOR "by hand" on the binary strings, the way we did it on paper
    # in class: write every row in binary, line the columns up, and a column
    # gives a 1 when it holds an odd number of 1s.
    if not board:
        return 0   # nothing to XOR

    n_bits = len(bin(max(board))) - 2        # bits needed for the largest row
    bit_strings = [format(row, 'b').zfill(n_bits) for row in board]


    digits = []
    for col in range(n_bits):
        # count the 1s in this column
        count = sum(1 for s in bit_strings if s[col] == '1')
        digits.append('1' if count % 2 else '0')

    # read the column results back as a binary number
    return int(''.join(digits), 2)




def is_n_position(board):

    # nim-sum 0: whoever moves has no good move
    return nim_sum(board) == 0



def is_p_position(board):

    # nim-sum not 0: there is a move back to 0, so a win is possible
    return nim_sum(board) != 0



# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    answer = {
        "nim_sum": nim_sum,
        "is_n_position": is_n_position,
        "is_p_position": is_p_position,
    }[case["type"]](case["input"])
    print(json.dumps(answer))
