# Style: the menu on one line separated by semicolons ("1: two players; 2: one player against
# the computer; 3: the computer against itself"), then "Mode? "; names only for humans; board
# typed after "Heaps (separated by spaces): "; a move typed in words, "take 3 from row 2" (the
# number first); board "Row 1 has 3"; winner "Winner: Ada".
from __future__ import print_function, division

try:
    input = raw_input
except NameError:
    pass


def draw(board):
    for number, count in enumerate(board, start=1):
        print("Row {} has {}".format(number, count))


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


def parse(text, board):
    words = text.lower().split()
    if len(words) != 5 or words[0] != "take" or words[2] != "from" or words[3] != "row":
        return None
    if not (words[1].isdigit() and words[4].isdigit()):
        return None
    count, row = int(words[1]), int(words[4])
    if 1 <= row <= len(board) and 1 <= count <= board[row - 1]:
        return row - 1, count
    return None


def read_move(name, board):
    while True:
        move = parse(input('{}, your move (e.g. "take 3 from row 2"): '.format(name)), board)
        if move is not None:
            return move
        print("Illegal move. Type it like: take 3 from row 2")


def read_board():
    while True:
        parts = input("Heaps (separated by spaces): ").split()
        if parts and all(part.isdigit() and int(part) > 0 for part in parts):
            return [int(part) for part in parts]
        print("Please type positive whole numbers.")


def main():
    print("1: two players; 2: one player against the computer; 3: the computer against itself")
    mode = input("Mode? ").strip()
    while mode not in ("1", "2", "3"):
        mode = input("Mode? ").strip()
    if mode == "1":
        players = [(input("First player's name: "), True), (input("Second player's name: "), True)]
    elif mode == "2":
        players = [(input("Your name: "), True), ("Computer", False)]
    else:
        players = [("Computer A", False), ("Computer B", False)]
    board = read_board()
    draw(board)
    turn = 0
    while sum(board) > 0:
        name, human = players[turn]
        if human:
            row, count = read_move(name, board)
        else:
            row, count = best_move(board)
            print("{} takes {} from row {}.".format(name, count, row + 1))
        board[row] -= count
        draw(board)
        winner = name
        turn = 1 - turn
    print("Winner: {}".format(winner))


main()
