# Style: each seat asked as "Player 1: (h)uman or (c)omputer? "; no names at all, the players
# are "Player 1" and "Player 2"; board fixed 3 4 5 drawn as columns (the heaps stand upright,
# numbered underneath); one line "row count"; winner "Player 2 has won".
from __future__ import print_function, division

try:
    input = raw_input
except NameError:
    pass


def draw(board):
    for level in range(max(board), 0, -1):
        print(" ".join("*" if count >= level else " " for count in board))
    print(" ".join(str(number) for number in range(1, len(board) + 1)))


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


def read_move(number, board):
    while True:
        parts = input("Player {}, your move (column count): ".format(number)).split()
        if len(parts) == 2 and parts[0].isdigit() and parts[1].isdigit():
            row, count = int(parts[0]), int(parts[1])
            if 1 <= row <= len(board) and 1 <= count <= board[row - 1]:
                return row - 1, count
        print("Not a legal move.")


def ask_kind(number):
    while True:
        answer = input("Player {}: (h)uman or (c)omputer? ".format(number)).strip().lower()
        if answer in ("h", "c"):
            return answer == "h"
        print("Type h or c.")


def main():
    humans = [ask_kind(1), ask_kind(2)]
    board = [3, 4, 5]
    draw(board)
    turn = 0
    while True:
        if humans[turn]:
            row, count = read_move(turn + 1, board)
        else:
            row, count = best_move(board)
            print("Player {} (computer) takes {} from column {}".format(turn + 1, count, row + 1))
        board[row] -= count
        draw(board)
        if sum(board) == 0:
            print("Player {} has won".format(turn + 1))
            return
        turn = 1 - turn


main()
