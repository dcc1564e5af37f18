# Style: modes listed without keys, "Modes: HvH, HvC, CvC", then "Mode (1-3): "; names only for
# humans, the human starts against "Computer"; board typed after "Heaps, e.g. 3,4,5: "; one line
# "row elements"; board "Row 1: | | |"; winner "Game over - Ada has won."
from __future__ import print_function, division

try:
    input = raw_input
except NameError:
    pass


def draw(board):
    for number, count in enumerate(board, start=1):
        print("Row {}: {}".format(number, " ".join("|" * count)))


def best_move(board):
    total = 0
    for count in board:
        total ^= count
    for index, count in enumerate(board):
        if total and count ^ total < count:
            return index, count - (count ^ total)
    for index, count in enumerate(board):
        if count:
            return index, 1


def read_board():
    while True:
        parts = input("Heaps, e.g. 3,4,5: ").replace(",", " ").split()
        if parts and all(part.isdigit() and int(part) > 0 for part in parts):
            return [int(part) for part in parts]
        print("Type whole numbers separated by spaces.")


def read_move(name, board):
    while True:
        parts = input("{}: row and elements? ".format(name)).split()
        try:
            row, count = int(parts[0]), int(parts[1])
        except (ValueError, IndexError):
            print("Please type two numbers.")
            continue
        if len(parts) == 2 and 1 <= row <= len(board) and 1 <= count <= board[row - 1]:
            return row - 1, count
        print("That move is not allowed.")


def main():
    print("Modes: HvH, HvC, CvC")
    mode = ""
    while mode not in ("1", "2", "3"):
        mode = input("Mode (1-3): ").strip()
    if mode == "1":
        players = [(input("Name 1: "), True), (input("Name 2: "), True)]
    elif mode == "2":
        players = [(input("Your name: "), True), ("Computer", False)]
    else:
        players = [("Computer A", False), ("Computer B", False)]
    board = read_board()
    draw(board)
    turn = 0
    while True:
        name, human = players[turn]
        if human:
            row, count = read_move(name, board)
        else:
            row, count = best_move(board)
            print("{} removes {} from row {}.".format(name, count, row + 1))
        board[row] -= count
        draw(board)
        if sum(board) == 0:
            print("Game over - {} has won.".format(name))
            return
        turn = 1 - turn


main()
