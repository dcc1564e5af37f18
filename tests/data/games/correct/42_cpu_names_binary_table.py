# Style: the seats decided by the names: "Player 1 (a name, or cpu for the computer): ",
# "Player 2 (...)"; typing cpu seats the computer ("CPU-1"/"CPU-2"); board typed "Heap
# sizes: " (spaces or commas); every turn the board is printed in binary, one heap a line
# ("Row 2:  4 = 100") with the nim-sum underneath ("Nim-sum:  = 001"); one line
# "Ada, row count: "; winner "And the winner is... Ada!".
from __future__ import print_function, division

try:
    input = raw_input
except NameError:
    pass


def binary_board(heaps):
    width = max(1, max(heaps).bit_length()) if heaps else 1
    s = 0
    for h in heaps:
        s ^= h
    for i, h in enumerate(heaps):
        print("Row %d: %2d = %s" % (i + 1, h, format(h, "0%db" % width)))
    print("Nim-sum:   = %s" % format(s, "0%db" % width))
    print()


def cpu_move(heaps):
    s = 0
    for h in heaps:
        s ^= h
    if s:
        for i, h in enumerate(heaps):
            if h ^ s < h:
                return i, h - (h ^ s)
    for i, h in enumerate(heaps):
        if h:
            return i, 1


def human_move(name, heaps):
    while True:
        parts = input("%s, row count: " % name).split()
        ok = len(parts) == 2 and parts[0].isdigit() and parts[1].isdigit()
        if ok:
            r, c = int(parts[0]), int(parts[1])
            if 1 <= r <= len(heaps) and 1 <= c <= heaps[r - 1]:
                return r - 1, c
        print("Not a legal move, try again.")


seats = []
for n in (1, 2):
    answer = input("Player %d (a name, or cpu for the computer): " % n).strip()
    if answer.lower() == "cpu":
        seats.append(("CPU-%d" % n, False))
    else:
        seats.append((answer or "Player %d" % n, True))

while True:
    try:
        heaps = [int(x) for x in input("Heap sizes: ").replace(",", " ").split()]
    except ValueError:
        print("Numbers please.")
        continue
    if heaps and min(heaps) >= 0 and sum(heaps) > 0:
        break
    print("Give at least one non-empty heap.")

binary_board(heaps)
turn = 0
while True:
    name, human = seats[turn]
    if human:
        r, c = human_move(name, heaps)
    else:
        r, c = cpu_move(heaps)
        print("%s takes %d from row %d" % (name, c, r + 1))
    heaps[r] -= c
    binary_board(heaps)
    if sum(heaps) == 0:
        print("And the winner is... %s!" % name)
        break
    turn = 1 - turn
