# Style: 26 (lettered one-line menu, each move confirmed) whose computer takes one element
# from the first heap that has any.
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
        parts = input("{}, row and elements: ".format(name)).replace(",", " ").split()
        if len(parts) != 2 or not parts[0].isdigit() or not parts[1].isdigit():
            print("Please type two numbers.")
            continue
        row, count = int(parts[0]), int(parts[1])
        if not (1 <= row <= len(board) and 1 <= count <= board[row - 1]):
            print("You cannot do that.")
            continue
        sure = input("Take {} from row {}? (y/n) ".format(count, row)).strip().lower()
        if sure.startswith("y"):
            return row - 1, count


def main():
    print("A) two players, B) against the computer, C) computer against computer")
    choice = ""
    while choice not in ("a", "b", "c"):
        choice = input("Your choice: ").strip().lower()
    if choice == "a":
        players = [(input("First player: "), True), (input("Second player: "), True)]
    elif choice == "b":
        players = [(input("Your name: "), True), ("Computer", False)]
    else:
        players = [("Computer 1", False), ("Computer 2", False)]
    board = [4, 4, 3]
    turn = 0
    while True:
        print("Heaps: " + " ".join(str(count) for count in board))
        name, human = players[turn]
        if human:
            row, count = read_move(name, board)
        else:
            row, count = best_move(board)
            print("{} takes {} from row {}".format(name, count, row + 1))
        board[row] -= count
        if sum(board) == 0:
            print("Heaps: " + " ".join(str(count) for count in board))
            print("{} takes the last one and wins".format(name))
            return
        turn = 1 - turn


main()
