# Style: modes listed as words without keys, "Choose one: friend, computer, watch", then
# "Mode: " (the word typed); names only for humans, the human starts against "Computer"; board
# fixed 5 3 1 drawn "Row 1 (5): * * * * *"; one line "row,count" with no space; winner "Game
# over. Ada is the winner."
from __future__ import print_function, division

try:
    input = raw_input
except NameError:
    pass


def draw(board):
    for number, count in enumerate(board, start=1):
        print("Row {} ({}): {}".format(number, count, " ".join("*" * count)))


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
        parts = input("{}, row,count: ".format(name)).replace(" ", "").split(",")
        if len(parts) == 2 and parts[0].isdigit() and parts[1].isdigit():
            row, count = int(parts[0]), int(parts[1])
            if 1 <= row <= len(board) and 1 <= count <= board[row - 1]:
                return row - 1, count
        print("Sorry, that move is not possible.")


def main():
    print("Choose one: friend, computer, watch")
    mode = input("Mode: ").strip().lower()
    while mode not in ("friend", "computer", "watch"):
        print("Type friend, computer or watch.")
        mode = input("Mode: ").strip().lower()
    if mode == "friend":
        players = [(input("First name: "), True), (input("Second name: "), True)]
    elif mode == "computer":
        players = [(input("Your name: "), True), ("Computer", False)]
    else:
        players = [("Computer 1", False), ("Computer 2", False)]
    board = [5, 3, 1]
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
            print("Game over. {} is the winner.".format(name))
            break
        turn = 1 - turn


main()
