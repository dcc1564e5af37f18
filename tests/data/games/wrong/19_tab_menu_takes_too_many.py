# Mistake: taking more than a row holds is accepted and empties the row. Otherwise
# correct-game 34 (a tab-separated menu, rows shown as letters, prompts without a space).
# expect: illegal_refused
from __future__ import print_function, division

try:
    input = raw_input
except NameError:
    pass

LETTERS = "ABCDEFGHIJ"


def draw(board):
    for index, count in enumerate(board):
        print("{}: {}".format(LETTERS[index], "*" * count))


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


def read_number(prompt):
    text = input(prompt).strip()
    if text.isdigit():
        return int(text)
    return None


def read_move(name, board):
    print("{}'s turn (type the row as a number: 1 for A, 2 for B ...)".format(name))
    while True:
        row = read_number("Row:")
        if row is None or not 1 <= row <= len(board) or board[row - 1] == 0:
            print("No such row with pieces, try again.")
            continue
        count = read_number("Take:")
        if count is None or count < 1:
            print("You cannot take that many, try again.")
            continue
        return row - 1, min(count, board[row - 1])


def main():
    print("1 human-human\t2 human-computer\t3 computer-computer")
    mode = input("Mode:").strip()
    while mode not in ("1", "2", "3"):
        mode = input("Mode:").strip()
    if mode == "1":
        players = [(input("Name 1:"), True), (input("Name 2:"), True)]
    elif mode == "2":
        players = [(input("Name:"), True), ("Computer", False)]
    else:
        players = [("Computer 1", False), ("Computer 2", False)]
    board = [3, 5, 7]
    turn = 0
    while True:
        draw(board)
        name, human = players[turn]
        if human:
            row, count = read_move(name, board)
        else:
            row, count = best_move(board)
            print("{} takes {} from {}".format(name, count, LETTERS[row]))
        board[row] -= count
        if sum(board) == 0:
            draw(board)
            print("{} took the last piece. {} wins.".format(name, name))
            break
        turn = 1 - turn


main()
