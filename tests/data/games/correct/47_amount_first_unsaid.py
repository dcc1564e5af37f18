# Style: as correct-game 43, but the move question never says which part comes first: "Ada,
# how many and from which row?: " wants the amount, then the row ("2 3" takes 2 from row 3);
# nimlab must find the order by trying (a move read the other way round, or refused in every
# form), never blame the program for its own guess; board drawn "Row:   1  2  3" over "Left:
# 3  4  5" with a history line "Moves: Ada 2@3, Robot 1@1".
from __future__ import print_function, division

try:
    input = raw_input
except NameError:
    pass

history = []


def show(rows):
    print("Row: " + "".join("%4d" % (i + 1) for i in range(len(rows))))
    print("Left:" + "".join("%4d" % n for n in rows))
    if history:
        print("Moves: " + ", ".join(history))
    print()


def robot(rows):
    s = 0
    for n in rows:
        s ^= n
    if s:
        for i, n in enumerate(rows):
            if n ^ s < n:
                return n - (n ^ s), i
    for i, n in enumerate(rows):
        if n:
            return 1, i


def person(name, rows):
    while True:
        words = input("%s, how many and from which row?: " % name).split()
        if len(words) != 2:
            print("Please give two numbers: first the amount, then the row.")
            continue
        try:
            amount, row = int(words[0]), int(words[1])
        except ValueError:
            print("Those are not numbers.")
            continue
        if row < 1 or row > len(rows):
            print("There is no row %d." % row)
        elif amount < 1 or amount > rows[row - 1]:
            print("Row %d has %d left; you cannot take %d." % (row, rows[row - 1], amount))
        else:
            return amount, row - 1


code = input("Type 'pvp', 'pvc' or 'cvc': ").strip().lower().strip("'\"")
while code not in ("pvp", "pvc", "cvc"):
    code = input("I need pvp, pvc or cvc: ").strip().lower().strip("'\"")

if code == "pvp":
    seats = [(input("Player 1 name: "), True), (input("Player 2 name: "), True)]
elif code == "pvc":
    seats = [("Robot", False), (input("Your name: "), True)]
else:
    seats = [("Robot 1", False), ("Robot 2", False)]

while True:
    text = input("Starting rows separated by spaces: ")
    try:
        rows = [int(t) for t in text.split()]
    except ValueError:
        print("Numbers only.")
        continue
    if rows and min(rows) >= 0 and sum(rows) > 0:
        break
    print("That board is empty.")

show(rows)
turn = 0
while True:
    name, is_person = seats[turn]
    if is_person:
        amount, row = person(name, rows)
    else:
        amount, row = robot(rows)
        print("%s takes %d from row %d." % (name, amount, row + 1))
    rows[row] -= amount
    history.append("%s %d@%d" % (name, amount, row + 1))
    show(rows)
    if sum(rows) == 0:
        print("%s empties the board and is the winner." % name)
        break
    turn = 1 - turn
