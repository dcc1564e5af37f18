# Style: "How many human players? (0-2) ", then names for the humans; computers "Computer";
# board fixed 2 3 4, drawn "Board: 2 3 4" only after both players moved (and at the start);
# a move typed as "row=2 count=3"; winner "Congratulations, Ada!".
from __future__ import print_function, division

try:
    input = raw_input
except NameError:
    pass


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


def parse_move(text):
    values = {}
    for part in text.split():
        if "=" not in part:
            return None
        key, value = part.split("=", 1)
        if not value.isdigit():
            return None
        values[key.strip().lower()] = int(value)
    if sorted(values) != ["count", "row"]:
        return None
    return values["row"], values["count"]


def read_move(name, board):
    while True:
        move = parse_move(input("{}, your move (row=R count=N): ".format(name)))
        if move and 1 <= move[0] <= len(board) and 1 <= move[1] <= board[move[0] - 1]:
            return move[0] - 1, move[1]
        print("Invalid move. Example: row=2 count=3")


def main():
    humans = -1
    while humans not in (0, 1, 2):
        answer = input("How many human players? (0-2) ").strip()
        humans = int(answer) if answer.isdigit() else -1
    players = []
    for number in range(2):
        if number < humans:
            players.append((input("Name of player {}: ".format(number + 1)), True))
        else:
            players.append(("Computer" if humans == 1 else "Computer {}".format(number + 1), False))
    board = [2, 3, 4]
    print("Board: " + " ".join(str(count) for count in board))
    turn = 0
    while True:
        name, human = players[turn]
        if human:
            row, count = read_move(name, board)
        else:
            row, count = best_move(board)
            print("{} takes {} from row {}.".format(name, count, row + 1))
        board[row] -= count
        if sum(board) == 0:
            print("Congratulations, {}!".format(name))
            return
        if turn == 1:
            print("Board: " + " ".join(str(count) for count in board))
        turn = 1 - turn


main()
