# Style: a main menu that comes back after every game ("1. New game", "2. Rules", "3. Quit", "Select: "),
# the mode asked in a second menu ("a. Human vs Human", ..., "Mode: "); no names ("Player 1", "You",
# "Computer"); board fixed 3 4 5 drawn with the taken elements crossed out ("2 | O O x x"); two prompts
# with ranges "Row number (1-3): " and "How many (1-4): "; winner "Player 1 wins this round."; the
# program ends when 3 is chosen in the main menu.
from __future__ import print_function, division

try:
    input = raw_input
except NameError:
    pass

START = [3, 4, 5]


def draw(rows):
    print()
    for i, n in enumerate(rows):
        print("%d | %s" % (i + 1, " ".join(["O"] * n + ["x"] * (START[i] - n))))
    print()


def ai(rows):
    s = 0
    for n in rows:
        s ^= n
    if s:
        for i, n in enumerate(rows):
            if n ^ s < n:
                return i, n - (n ^ s)
    for i, n in enumerate(rows):
        if n:
            return i, 1


def read_int(prompt, low, high):
    text = input(prompt).strip()
    if not text.isdigit():
        print("That's not a number.")
        return None
    value = int(text)
    if value < low or value > high:
        print("Out of range.")
        return None
    return value


def human(rows):
    while True:
        r = read_int("Row number (1-%d): " % len(rows), 1, len(rows))
        if r is None:
            continue
        if rows[r - 1] == 0:
            print("That row is empty.")
            continue
        n = read_int("How many (1-%d): " % rows[r - 1], 1, rows[r - 1])
        if n is None:
            continue
        return r - 1, n


def play():
    print("a. Human vs Human")
    print("b. Human vs Computer")
    print("c. Computer vs Computer")
    mode = input("Mode: ").strip().lower()
    while mode not in ("a", "b", "c"):
        mode = input("Mode (a, b or c): ").strip().lower()
    if mode == "a":
        seats = [("Player 1", True), ("Player 2", True)]
    elif mode == "b":
        seats = [("You", True), ("Computer", False)]
    else:
        seats = [("Computer 1", False), ("Computer 2", False)]
    rows = list(START)
    turn = 0
    while True:
        draw(rows)
        name, is_human = seats[turn]
        print("%s to move." % name)
        if is_human:
            r, n = human(rows)
        else:
            r, n = ai(rows)
            print("%s takes %d from row %d." % (name, n, r + 1))
        rows[r] -= n
        if sum(rows) == 0:
            draw(rows)
            if name == "You":
                print("You win this round.")
            else:
                print("%s wins this round." % name)
            return
        turn = 1 - turn


while True:
    print("===== NIM =====")
    print("1. New game")
    print("2. Rules")
    print("3. Quit")
    choice = input("Select: ").strip()
    if choice == "1":
        play()
    elif choice == "2":
        print("Take any number of elements from one row. Whoever takes the last one wins.")
    elif choice == "3":
        print("Goodbye.")
        break
    else:
        print("Unknown option.")
