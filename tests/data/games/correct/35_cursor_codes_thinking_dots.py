# Style: a terminal game: the cursor hidden (ESC[?25l) and shown again at the end, every board
# line starting with ESC[K; the computer "thinks" (prints dots), then erases that line (ESC[1A
# ESC[K); menu on lines, every prompt ">>> "; names only for humans; board fixed 2 4 6 drawn
# "Row 1: [##]"; one line "row count"; winner "Ada wins!".
from __future__ import print_function, division

import sys

try:
    input = raw_input
except NameError:
    pass

UP = "\033[{}A"
CLEAR_LINE = "\033[K"
HIDE = "\033[?25l"
SHOW = "\033[?25h"


def out(text):
    sys.stdout.write(text)
    sys.stdout.flush()


def draw(board):
    for number, count in enumerate(board, start=1):
        out("{}Row {}: [{}]\n".format(CLEAR_LINE, number, "#" * count))


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
    print("{}, type a row and how many to take.".format(name))
    while True:
        parts = input(">>> ").split()
        if len(parts) == 2 and parts[0].isdigit() and parts[1].isdigit():
            row, count = int(parts[0]), int(parts[1])
            if 1 <= row <= len(board) and 1 <= count <= board[row - 1]:
                return row - 1, count
        print("Invalid move, try again.")


def think(name):
    out("{} is thinking".format(name))
    for _ in range(3):
        out(".")
    out("\n" + UP.format(1) + CLEAR_LINE)


def main():
    out(HIDE)
    print("1) Human vs Human")
    print("2) Human vs Computer")
    print("3) Computer vs Computer")
    mode = input(">>> ").strip()
    while mode not in ("1", "2", "3"):
        print("Choose 1, 2 or 3")
        mode = input(">>> ").strip()
    if mode == "1":
        print("Names of the two players:")
        players = [(input(">>> "), True), (input(">>> "), True)]
    elif mode == "2":
        print("Your name:")
        players = [(input(">>> "), True), ("Computer", False)]
    else:
        players = [("Computer 1", False), ("Computer 2", False)]
    board = [2, 4, 6]
    draw(board)
    turn = 0
    while True:
        name, human = players[turn]
        if human:
            row, count = read_move(name, board)
        else:
            think(name)
            row, count = best_move(board)
            print("{} takes {} from row {}".format(name, count, row + 1))
        board[row] -= count
        draw(board)
        if sum(board) == 0:
            print("{} wins!".format(name))
            break
        turn = 1 - turn
    out(SHOW)


main()
