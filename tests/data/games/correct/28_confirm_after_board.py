# Style: the lab's names and a board typed on one line ("Board: 3 4 5"); one line "row elements";
# after every human move the new board is drawn ("Row 1: 3") and "Keep this move? (y/n)" asks to
# confirm it (n takes it back and asks again); the winner is announced only after the last
# confirmation ("Bob wins").
from __future__ import print_function, division

try:
    input = raw_input
except NameError:
    pass


def draw(board):
    for number, count in enumerate(board, start=1):
        print("Row {}: {}".format(number, count))


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


def human_move(name, board):
    while True:
        parts = input("{}, your move (row elements): ".format(name)).split()
        if len(parts) != 2 or not parts[0].isdigit() or not parts[1].isdigit():
            print("Two numbers, please.")
            continue
        row, count = int(parts[0]), int(parts[1])
        if not (1 <= row <= len(board) and 1 <= count <= board[row - 1]):
            print("That move is not possible.")
            continue
        board[row - 1] -= count
        draw(board)
        if input("Keep this move? (y/n) ").strip().lower().startswith("y"):
            return
        board[row - 1] += count
        draw(board)


def main():
    names = [input("Player 1's name: "), input("Player 2's name: ")]
    board = [int(part) for part in input("Board: ").split()]
    draw(board)
    turn = 0
    while True:
        name = names[turn]
        if "computer" in name.lower():
            row, count = best_move(board)
            board[row] -= count
            print("{} takes {} from row {}".format(name, count, row + 1))
            draw(board)
        else:
            human_move(name, board)
        if sum(board) == 0:
            print("{} wins".format(name))
            return
        turn = 1 - turn


main()
