# Style: a mode asked as codes in one line ("Enter game mode: hh, hc or cc > "); the board
# typed with spaces and drawn on one line ("Heaps: 5 4 3"); moves as "heap amount" on one line;
# the computer says "CPU 2 removes 1 from heap 3"; the winner "P1 is the winner".
from __future__ import print_function
try:
    input = raw_input
except NameError:
    pass

def best(board):
    t = 0
    for s in board:
        t ^= s
    for i, s in enumerate(board):
        if t and s ^ t < s:
            return i, s - (s ^ t)
    i = [k for k, s in enumerate(board) if s][0]
    return i, 1

mode = ""
while mode not in ("hh", "hc", "cc"):
    mode = input("Enter game mode: hh, hc or cc > ").strip()
comp = {"hh": [0, 0], "hc": [0, 1], "cc": [1, 1]}[mode]
board = [int(x) for x in input("Heaps (space separated): ").split()]
p = 0
while any(board):
    print("Heaps:", " ".join(str(x) for x in board))
    if comp[p]:
        i, n = best(board)
        print("CPU %d removes %d from heap %d" % (p + 1, n, i + 1))
    else:
        try:
            i, n = map(int, input("P%d move (heap amount): " % (p + 1)).split())
            i -= 1
        except ValueError:
            print("bad input")
            continue
        if not (0 <= i < len(board) and 0 < n <= board[i]):
            print("illegal, again")
            continue
    board[i] -= n
    p = 1 - p
print("P%d is the winner" % (2 - p))
