# Style: the three modes on one line between pipes, "[1] PvP | [2] PvC | [3] CvC", then
# "Choose: "; names only for humans, the computer is "Bot"; the human starts; board fixed 3 4 5.
# One line "row elements" asked as "Move (row count): "; board "1: ###"; winner "Ada wins!".
from __future__ import print_function, division

try:
    input = raw_input
except NameError:
    pass


def draw(board):
    for number, count in enumerate(board, start=1):
        print("{}: {}".format(number, "#" * count))


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
        parts = input("{}, move (row count): ".format(name)).split()
        if len(parts) == 2 and parts[0].isdigit() and parts[1].isdigit():
            row, count = int(parts[0]), int(parts[1])
            if 1 <= row <= len(board) and 1 <= count <= board[row - 1]:
                return row - 1, count
        print("Illegal move, try again.")


def main():
    print("[1] PvP | [2] PvC | [3] CvC")
    mode = ""
    while mode not in ("1", "2", "3"):
        mode = input("Choose: ").strip()
    if mode == "1":
        players = [(input("Player 1 name: "), True), (input("Player 2 name: "), True)]
    elif mode == "2":
        players = [(input("Your name: "), True), ("Bot", False)]
    else:
        players = [("Bot 1", False), ("Bot 2", False)]
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
            print("{} wins!".format(name))
            return
        turn = 1 - turn


main()
