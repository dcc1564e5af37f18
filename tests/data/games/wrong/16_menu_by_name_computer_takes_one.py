# Style: 27 (menu labels without "vs": "You against me", "I play myself"; moves as row/count)
# whose computer takes one element from the first row that has any.
# expect: computer_optimal
from __future__ import print_function, division

try:
    input = raw_input
except NameError:
    pass


def best_move(board):
    for index, count in enumerate(board):
        if count:
            return index, 1


def read_move(name, board):
    while True:
        text = input("{}: your move, e.g. 2/3 (row/count): ".format(name)).strip()
        parts = text.split("/")
        if len(parts) == 2 and parts[0].strip().isdigit() and parts[1].strip().isdigit():
            row, count = int(parts[0]), int(parts[1])
            if 1 <= row <= len(board) and 1 <= count <= board[row - 1]:
                return row - 1, count
        print("Bad move, use row/count.")


def main():
    print("1 - Two humans")
    print("2 - You against me")
    print("3 - I play myself")
    mode = ""
    while mode not in ("1", "2", "3"):
        mode = input("Pick 1-3: ").strip()
    if mode == "1":
        players = [(input("Player one: "), True), (input("Player two: "), True)]
    elif mode == "2":
        players = [(input("Your name: "), True), ("Nimbot", False)]
    else:
        players = [("Nimbot", False), ("Nimbot II", False)]
    board = [3, 5, 7]
    print(" | ".join(str(count) for count in board))
    turn = 0
    while True:
        name, human = players[turn]
        if human:
            row, count = read_move(name, board)
        else:
            row, count = best_move(board)
            print("{} takes {} from row {}".format(name, count, row + 1))
        board[row] -= count
        print(" | ".join(str(count) for count in board))
        if sum(board) == 0:
            print("{} is victorious".format(name))
            return
        turn = 1 - turn


main()
