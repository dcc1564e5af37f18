# Style: "How many computers? (0, 1 or 2) " chooses the mode (humans first), names only for
# humans; the board asked as "How many rows? " then all sizes on one line, "Sizes of the 3
# rows: "; two prompts "Row number: ", "Elements to take: "; board "1 | ***"; winner
# "Ada took the last element and wins!"
from __future__ import print_function, division

try:
    input = raw_input
except NameError:
    pass


def draw(board):
    print("-" * 12)
    for number, count in enumerate(board, start=1):
        print("{} | {}".format(number, "*" * count))
    print("-" * 12)


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


def whole(text):
    text = text.strip()
    if text.isdigit():
        return int(text)
    return -1


def read_board():
    rows = whole(input("How many rows? "))
    while rows < 1:
        rows = whole(input("How many rows? "))
    while True:
        sizes = input("Sizes of the {} rows: ".format(rows)).split()
        if len(sizes) == rows and all(whole(size) > 0 for size in sizes):
            return [int(size) for size in sizes]
        print("Please type {} positive numbers.".format(rows))


def read_move(name, board):
    print("{}'s turn.".format(name))
    while True:
        row = whole(input("Row number: "))
        count = whole(input("Elements to take: "))
        if 1 <= row <= len(board) and 1 <= count <= board[row - 1]:
            return row - 1, count
        print("Illegal move! {} must try again.".format(name))


def main():
    computers = whole(input("How many computers? (0, 1 or 2) "))
    while computers not in (0, 1, 2):
        computers = whole(input("How many computers? (0, 1 or 2) "))
    players = []
    for seat in range(2 - computers):
        players.append((input("Name of human {}: ".format(seat + 1)), True))
    for seat in range(computers):
        players.append(("Computer {}".format(seat + 1) if computers == 2 else "Computer", False))
    board = read_board()
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
            print("{} took the last element and wins!".format(name))
            break
        turn = 1 - turn


main()
