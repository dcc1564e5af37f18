# Style: the mode menu on one line names who plays ("Who plays? 1) Ada and Bob  2) Ada and the
# computer  3) two computers"), then "Choice: "; the humans' names are fixed, never asked; Ada
# starts; board fixed 3 4 5 drawn "Row 1: ooo"; one line "row count"; winner "Ada wins".
from __future__ import print_function, division

try:
    input = raw_input
except NameError:
    pass


def draw(board):
    for number, count in enumerate(board, start=1):
        print("Row {}: {}".format(number, "o" * count))


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


def read_move(name, board):
    while True:
        parts = input("{}, your move (row count): ".format(name)).split()
        if len(parts) == 2 and parts[0].isdigit() and parts[1].isdigit():
            row, count = int(parts[0]), int(parts[1])
            if 1 <= row <= len(board) and 1 <= count <= board[row - 1]:
                return row - 1, count
        print("Not allowed, {} - try again.".format(name))


def main():
    print("Who plays? 1) Ada and Bob  2) Ada and the computer  3) two computers")
    choice = input("Choice: ").strip()
    while choice not in ("1", "2", "3"):
        choice = input("Please type 1, 2 or 3: ").strip()
    if choice == "1":
        players = [("Ada", True), ("Bob", True)]
    elif choice == "2":
        players = [("Ada", True), ("The computer", False)]
    else:
        players = [("Computer 1", False), ("Computer 2", False)]
    board = [3, 4, 5]
    draw(board)
    turn = 0
    while True:
        name, human = players[turn]
        if human:
            row, count = read_move(name, board)
        else:
            row, count = best_move(board)
            print("{} takes {} from row {}".format(name, count, row + 1))
        board[row] -= count
        draw(board)
        if sum(board) == 0:
            print("{} wins".format(name))
            return
        turn = 1 - turn


main()
