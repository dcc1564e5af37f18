# Wrong: based on correct-game 41; menu option 2, "Ada vs Computer", seats two humans (the
# second player's name is used and asked for moves).
# expect: modes
from __future__ import print_function, division

try:
    input = raw_input
except NameError:
    pass


def show(rows):
    print()
    for i, n in enumerate(rows):
        print("Row %d | %s" % (i + 1, " ".join("o" * n)))
    print()


def xor_all(rows):
    s = 0
    for n in rows:
        s ^= n
    return s


def computer_move(rows):
    s = xor_all(rows)
    if s != 0:
        for i, n in enumerate(rows):
            if n ^ s < n:
                return i, n - (n ^ s)
    for i, n in enumerate(rows):
        if n > 0:
            return i, 1


def ask_number(prompt):
    text = input(prompt).strip()
    if text.isdigit():
        return int(text)
    return None


def human_move(name, rows):
    while True:
        row = ask_number("%s, row> " % name)
        if row is None or row < 1 or row > len(rows):
            print("No such row, pick 1 to %d." % len(rows))
            continue
        if rows[row - 1] == 0:
            print("Row %d is already empty." % row)
            continue
        count = ask_number("%s, how many> " % name)
        if count is None or count < 1 or count > rows[row - 1]:
            print("You can take 1 to %d from row %d." % (rows[row - 1], row))
            continue
        return row - 1, count


first = input("First player's name> ").strip() or "Player 1"
second = input("Second player's name> ").strip() or "Player 2"

print()
print("1) %s vs %s" % (first, second))
print("2) %s vs Computer" % first)
print("3) Computer vs Computer")
choice = input("Pick a game> ").strip()
while choice not in ("1", "2", "3"):
    choice = input("Please type 1, 2 or 3> ").strip()

if choice == "1":
    players = [(first, True), (second, True)]
elif choice == "2":
    players = [(first, True), (second, True)]
else:
    players = [("Computer 1", False), ("Computer 2", False)]

rows = [3, 5, 7]
turn = 0
show(rows)
while True:
    name, human = players[turn]
    if human:
        r, c = human_move(name, rows)
    else:
        r, c = computer_move(rows)
        print("%s takes %d from row %d" % (name, c, r + 1))
    rows[r] -= c
    show(rows)
    if sum(rows) == 0:
        print("Well played %s - you took the last one and win!" % name)
        break
    turn = 1 - turn
