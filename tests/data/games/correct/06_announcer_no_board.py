# Style: a menu "1. Player vs Player" / "2. Player vs AI" / "3. AI vs AI", then
# "Enter 1, 2 or 3: "; the computer is called "The AI". The board is asked once (sizes on one
# line) and never drawn: every move is announced instead ("Ada took 2 from row 3.",
# "The AI takes 2 from row 3"). Moves typed "row elements"; winner "Ada wins the game!".
from __future__ import print_function, division

import random

try:
    input = raw_input
except NameError:
    pass


class Game(object):
    def __init__(self, names, is_ai, rows):
        self.names = names
        self.is_ai = is_ai
        self.rows = rows
        self.turn = 0

    def over(self):
        return all(size == 0 for size in self.rows)

    def legal(self, row, take):
        return 1 <= row <= len(self.rows) and 1 <= take <= self.rows[row - 1]

    def ai_move(self):
        total = 0
        for size in self.rows:
            total ^= size
        if total != 0:
            for i, size in enumerate(self.rows):
                target = size ^ total
                if target < size:
                    return i + 1, size - target
        row = random.choice([i + 1 for i, size in enumerate(self.rows) if size > 0])
        return row, 1

    def human_move(self):
        name = self.names[self.turn]
        while True:
            words = input("{}, your move (row elements): ".format(name)).split()
            try:
                row, take = int(words[0]), int(words[1])
                if len(words) != 2:
                    raise ValueError
            except (ValueError, IndexError):
                print("Type two numbers, the row and how many to take, like: 3 2")
                continue
            if self.legal(row, take):
                return row, take
            print("That move is not possible. Remember the rows: {}.".format(
                ", ".join("row {} has {}".format(i + 1, s) for i, s in enumerate(self.rows))))

    def play(self):
        while not self.over():
            name = self.names[self.turn]
            if self.is_ai[self.turn]:
                row, take = self.ai_move()
                print("{} takes {} from row {}".format(name, take, row))
            else:
                row, take = self.human_move()
                print("{} took {} from row {}.".format(name, take, row))
            self.rows[row - 1] -= take
            if self.over():
                print("{} wins the game!".format(name))
                return
            self.turn = 1 - self.turn


def read_rows():
    while True:
        try:
            rows = [int(w) for w in input("Enter the row sizes separated by spaces: ").split()]
        except ValueError:
            print("Numbers only, please.")
            continue
        if rows and all(r >= 0 for r in rows) and any(rows):
            return rows
        print("Give at least one row with something in it.")


def main():
    print("Let's play Nim!")
    print("1. Player vs Player")
    print("2. Player vs AI")
    print("3. AI vs AI")
    mode = input("Enter 1, 2 or 3: ").strip()
    while mode not in ("1", "2", "3"):
        mode = input("Enter 1, 2 or 3: ").strip()
    if mode == "1":
        names = [input("Player 1, enter your name: "), input("Player 2, enter your name: ")]
        is_ai = [False, False]
    elif mode == "2":
        names = [input("Enter your name: "), "The AI"]
        is_ai = [False, True]
    else:
        names = ["AI Alpha", "AI Beta"]
        is_ai = [True, True]
    Game(names, is_ai, read_rows()).play()


if __name__ == "__main__":
    main()
