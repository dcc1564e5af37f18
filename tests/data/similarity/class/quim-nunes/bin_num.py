# -*- coding: utf-8 -*-
"""Exercise 4, bin_num: numbers to binary digits and back.

Read the statement with `nimlab show bin_num`, then check your work with
`nimlab check bin_num.py`.
"""
from __future__ import print_function, division


def numeral_binary(numeral):
    # monta passo a passo
    result = []
    m = numeral
    while True:
        # comeca em zero
        result = [m % 2] + result
        # comeca em zero
        m = m // 2
        if m == 0:
            break
    # a resposta
    return result


def binary_numeral(binary):
    # monta passo a passo
    return int("".join(str(d) for d in binary), 2)


# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    if case["type"] == "num_bin":
        print(json.dumps(numeral_binary(case["value"])))
    else:
        print(json.dumps(binary_numeral(case["value"])))
