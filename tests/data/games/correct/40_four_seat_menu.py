# Style: a menu of four seatings on lines ("1) human - human", "2) human - computer", "3)
# computer - human", "4) computer - computer"), "Choose 1-4: "; names only for humans; board
# fixed 2 5 6 drawn "(1) ##"; one line "row count" asked as "Ada > "; winner "Ada wins the game".
from __future__ import print_function, division

try:
    input = raw_input
except NameError:
    pass

SEATINGS = {
    "1": (True, True),
    "2": (True, False),
    "3": (False, True),
    "4": (False, False),
}


def draw(board):
    for number, count in enumerate(board, start=1):
        print("({}) {}".format(number, "#" * count))


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
        parts = input("{} > ".format(name)).split()
        if len(parts) == 2 and parts[0].isdigit() and parts[1].isdigit():
            row, count = int(parts[0]), int(parts[1])
            if 1 <= row <= len(board) and 1 <= count <= board[row - 1]:
                return row - 1, count
        print("Illegal move, {} plays again.".format(name))


def main():
    print("1) human - human")
    print("2) human - computer")
    print("3) computer - human")
    print("4) computer - computer")
    choice = input("Choose 1-4: ").strip()
    while choice not in SEATINGS:
        choice = input("Choose 1-4: ").strip()
    players = []
    for seat, human in enumerate(SEATINGS[choice], start=1):
        if human:
            players.append((input("Name of player {}: ".format(seat)), True))
        else:
            players.append(("Computer {}".format(seat), False))
    board = [2, 5, 6]
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
            print("{} wins the game".format(name))
            break
        turn = 1 - turn


main()
