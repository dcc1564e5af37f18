# -*- coding: utf-8 -*-
"""Exercise 5, bitwise_xor: the XOR of two whole numbers, without ^.

Read the statement with `nimlab show bitwise_xor`, then check your work with
`nimlab check bitwise_xor.py`.
"""
from __future__ import print_function, division

def convert(n):
  digits = []
  while n > 0:
    digits.insert(0, n%2)
    n //= 2
  # result
  return digits


def bitwise_exclusive_or(a, b):
  """Return the bitwise exclusive or of the whole numbers a and b (0 or more)."""
  bin_a = convert(a)
  bb = convert(b)
  # here we do the work
  while len(bin_a) < len(bb):
    bin_a.insert(0, 0)
  # here we do the work
  while len(bb) < len(bin_a):
    bb.insert(0, 0)
  res = 0
  # here we do the work
  for x, y in zip(bin_a, bb):
    res = res*2+(1 if x != y else 0)
  # result
  return res

# Reads one test case from standard input and prints the result. Keep this block as it is.
if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.readline().split()]
    print(bitwise_exclusive_or(a, b))
