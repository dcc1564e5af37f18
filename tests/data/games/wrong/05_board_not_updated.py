# Mistake: the board drawn is always the starting board (it draws a copy kept at the start).
# Otherwise correct-game 09 (classes, the lab's convention, present_board's format).
# expect: board_shown
from __future__ import print_function, division

import random

try:
    input = raw_input
except NameError:
    pass


class Board(object):
    def __init__(self, rows):
        self.rows = list(rows)
        self.start = list(rows)

    def __str__(self):
        lines = ["Nim:"]
        for number, size in enumerate(self.start, 1):
            lines.append(str(number) + ":" + " X" * size)
        return "\n".join(lines)

    def empty(self):
        return sum(self.rows) == 0

    def take(self, row, count):
        """Takes count elements from row (1-based); False if that is not allowed."""
        if row < 1 or row > len(self.rows):
            return False
        if count < 1 or count > self.rows[row - 1]:
            return False
        self.rows[row - 1] -= count
        return True

    def nim_sum(self):
        total = 0
        for size in self.rows:
            total ^= size
        return total


class HumanPlayer(object):
    def __init__(self, name):
        self.name = name

    def choose(self, board):
        row = input("Which row? ")
        count = input("How many elements? ")
        try:
            return int(row), int(count)
        except ValueError:
            return None


class ComputerPlayer(object):
    def __init__(self, name):
        self.name = name

    def choose(self, board):
        total = board.nim_sum()
        if total:
            for index, size in enumerate(board.rows):
                if size ^ total < size:
                    return index + 1, size - (size ^ total)
        index = random.choice([i for i, size in enumerate(board.rows) if size > 0])
        return index + 1, random.randint(1, board.rows[index])


def make_player(name):
    if "computer" in name.lower():
        return ComputerPlayer(name)
    return HumanPlayer(name)


class Nim(object):
    def __init__(self, first, second, rows):
        self.players = [make_player(first), make_player(second)]
        self.board = Board(rows)

    def run(self):
        print(self.board)
        current = 0
        while not self.board.empty():
            player = self.players[current]
            print("It is {}'s turn.".format(player.name))
            move = player.choose(self.board)
            if move is None or not self.board.take(move[0], move[1]):
                print("That is not a legal move. Try again, {}.".format(player.name))
                continue
            if isinstance(player, ComputerPlayer):
                print("{} took {} from row {}.".format(player.name, move[1], move[0]))
            print(self.board)
            if self.board.empty():
                print("The winner is:")
                print(player.name)
            current = 1 - current


if __name__ == "__main__":
    first = input("Player 1's name: ")
    second = input("Player 2's name: ")
    rows = None
    while rows is None:
        try:
            rows = [int(x) for x in input("Board: ").split()]
            if not rows or min(rows) < 0 or sum(rows) == 0:
                print("The board needs at least one element.")
                rows = None
        except ValueError:
            print("Please type the row sizes as numbers separated by spaces.")
    Nim(first, second, rows).run()
