# Style: no names, the players are "Player one" and "Player two" in words; "Is player one a
# computer? (yes/no) " per seat; board fixed 3 4 5 drawn on one line "[ 3 ][ 4 ][ 5 ]"; two
# prompts "Player one, which row? ", "Player one, how many? "; winner "Player two takes the
# last one. Player two wins!"
from __future__ import print_function, division

try:
    input = raw_input
except NameError:
    pass

WORDS = ["one", "two"]


def draw(board):
    print("".join("[ {} ]".format(count) for count in board))


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


def number(text):
    text = text.strip()
    return int(text) if text.isdigit() else 0


def read_move(name, board):
    while True:
        row = number(input("{}, which row? ".format(name)))
        if not 1 <= row <= len(board) or board[row - 1] == 0:
            print("There is no such row with elements in it.")
            continue
        count = number(input("{}, how many? ".format(name)))
        if not 1 <= count <= board[row - 1]:
            print("You can take from 1 to {} there.".format(board[row - 1]))
            continue
        return row - 1, count


def yes(question):
    while True:
        answer = input(question).strip().lower()
        if answer in ("yes", "no"):
            return answer == "yes"
        print("Please answer yes or no.")


def main():
    computer = [yes("Is player {} a computer? (yes/no) ".format(word)) for word in WORDS]
    board = [3, 4, 5]
    draw(board)
    turn = 0
    while True:
        name = "Player {}".format(WORDS[turn])
        if computer[turn]:
            row, count = best_move(board)
            print("{} (computer) takes {} from row {}".format(name, count, row + 1))
        else:
            row, count = read_move(name, board)
        board[row] -= count
        draw(board)
        if sum(board) == 0:
            print("{} takes the last one. {} wins!".format(name, name))
            break
        turn = 1 - turn


main()
