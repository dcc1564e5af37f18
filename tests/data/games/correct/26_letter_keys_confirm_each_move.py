# Style: lettered modes on one line, "A) two players, B) against the computer, C) computer
# against computer", then "Your choice: "; names only for humans, computer "Computer"; board
# fixed 4 4 3 as "Heaps: 4 4 3"; one line "row elements", then "Take 2 from row 3? (y/n) "
# confirms each move (n asks again); winner "Ada takes the last one and wins".
from __future__ import print_function, division

try:
    input = raw_input
except NameError:
    pass


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
