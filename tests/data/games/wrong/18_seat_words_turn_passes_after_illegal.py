# Mistake: after an illegal move the refusal is printed and the turn passes to the other
# player. Otherwise correct-game 33 (seats typed as words, "row:count", a bordered table).
# expect: turn_order illegal_refused
from __future__ import print_function, division

try:
    input = raw_input
except NameError:
    pass


def draw(board):
    line = "+-----+-------+"
    print(line)
    print("| row | count |")
    print(line)
    for number, count in enumerate(board, start=1):
        print("| {:^3} | {:^5} |".format(number, count))
    print(line)


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
    parts = input("{} (row:count): ".format(name)).split(":")
    if len(parts) == 2:
        row, count = parts[0].strip(), parts[1].strip()
        if row.isdigit() and count.isdigit():
            row, count = int(row), int(count)
            if 1 <= row <= len(board) and 1 <= count <= board[row - 1]:
                return row - 1, count
    print("That move is not allowed.")
    return None


def seat(number):
    while True:
        kind = input("Is player {} a human or a computer? ".format(number)).strip().lower()
        if kind == "human":
            return input("Name of player {}: ".format(number)), True
        if kind == "computer":
            return "Computer {}".format(number), False
        print("Please answer human or computer.")


def main():
    players = [seat(1), seat(2)]
    board = [4, 3, 5]
    draw(board)
    turn = 0
    while True:
        name, human = players[turn]
        if human:
            move = read_move(name, board)
            if move is None:
                turn = 1 - turn
                continue
            row, count = move
        else:
            row, count = best_move(board)
            print("{} removes {} from row {}".format(name, count, row + 1))
        board[row] -= count
        draw(board)
        if sum(board) == 0:
            print("*** {} wins ***".format(name))
            break
        turn = 1 - turn


main()
