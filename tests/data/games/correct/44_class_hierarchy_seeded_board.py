# Style: a class hierarchy (Player, HumanPlayer, ComputerPlayer, NimGame); the mode asked as "Number of players (0, 1 or
# 2)? "; names "Name of human 1: " for humans, computers "Computer", "Computer 1"/"Computer 2"; the starting board is
# random-looking but made from a seed the user types ("Seed for the board (any whole number): "), 3 to 5 rows of 1 to 7;
# board drawn "Row 1 [5]: *****"; two prompts "Ada - row: " and "Ada - take: "; the computer says "Computer removes 2
# from row 3."; winner "Ada took the last element. Ada wins!".
from __future__ import print_function, division

import random

try:
    input = raw_input
except NameError:
    pass


class Player(object):
    def __init__(self, name):
        self.name = name

    def choose(self, board):
        raise NotImplementedError


class HumanPlayer(Player):
    def _number(self, prompt):
        text = input(prompt).strip()
        if text.isdigit():
            return int(text)
        return -1

    def choose(self, board):
        while True:
            row = self._number("%s - row: " % self.name)
            take = self._number("%s - take: " % self.name)
            if board.is_legal(row, take):
                return row, take
            print("Illegal move, %s. Try again." % self.name)


class ComputerPlayer(Player):
    def choose(self, board):
        s = board.nim_sum()
        if s != 0:
            for i, n in enumerate(board.rows):
                if n ^ s < n:
                    return i + 1, n - (n ^ s)
        for i, n in enumerate(board.rows):
            if n > 0:
                return i + 1, 1


class Board(object):
    def __init__(self, rows):
        self.rows = list(rows)

    def nim_sum(self):
        s = 0
        for n in self.rows:
            s ^= n
        return s

    def is_legal(self, row, take):
        return 1 <= row <= len(self.rows) and 1 <= take <= self.rows[row - 1]

    def remove(self, row, take):
        self.rows[row - 1] -= take

    def empty(self):
        return sum(self.rows) == 0

    def show(self):
        for i, n in enumerate(self.rows):
            print("Row %d [%d]: %s" % (i + 1, n, "*" * n))


class NimGame(object):
    def __init__(self, players, board):
        self.players = players
        self.board = board

    def play(self):
        turn = 0
        self.board.show()
        while True:
            player = self.players[turn]
            row, take = player.choose(self.board)
            if isinstance(player, ComputerPlayer):
                print("%s removes %d from row %d." % (player.name, take, row))
            self.board.remove(row, take)
            self.board.show()
            if self.board.empty():
                print("%s took the last element. %s wins!" % (player.name, player.name))
                return player
            turn = 1 - turn


def ask_int(prompt, allowed=None):
    while True:
        text = input(prompt).strip()
        try:
            value = int(text)
        except ValueError:
            print("Please type a whole number.")
            continue
        if allowed is None or value in allowed:
            return value
        print("Please type one of %s." % ", ".join(str(a) for a in allowed))


def main():
    humans = ask_int("Number of players (0, 1 or 2)? ", (0, 1, 2))
    if humans == 2:
        players = [HumanPlayer(input("Name of human 1: ")), HumanPlayer(input("Name of human 2: "))]
    elif humans == 1:
        players = [HumanPlayer(input("Name of human 1: ")), ComputerPlayer("Computer")]
    else:
        players = [ComputerPlayer("Computer 1"), ComputerPlayer("Computer 2")]
    seed = ask_int("Seed for the board (any whole number): ")
    rng = random.Random(seed)
    rows = [rng.randint(1, 7) for _ in range(rng.randint(3, 5))]
    NimGame(players, Board(rows)).play()


if __name__ == "__main__":
    main()
