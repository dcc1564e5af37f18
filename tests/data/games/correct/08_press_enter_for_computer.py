# Style: "Is player 1 a computer? [y/n] " and "Is player 2 a computer? [y/n] ", names asked
# for humans ("Player 1's name: "), the board typed on one line ("Board: "). Before each
# computer move the game waits: "Press Enter to let the computer move". Boards in
# present_board's format; moves "row, elements" or "row elements"; winner "Victory for Ada".
from __future__ import print_function, division

try:
    input = raw_input
except NameError:
    pass


def present_board(board):
    lines = ["Nim:"]
    for row, size in enumerate(board, 1):
        lines.append("{}:{}".format(row, " X" * size))
    return "\n".join(lines)


def winning_move(board):
    nim_sum = 0
    for size in board:
        nim_sum ^= size
    if nim_sum:
        for index, size in enumerate(board):
            if size ^ nim_sum < size:
                return index + 1, size - (size ^ nim_sum)
    for index, size in enumerate(board):
        if size:
            return index + 1, 1


def parse_move(text):
    parts = text.replace(",", " ").split()
    if len(parts) != 2:
        return None
    try:
        return int(parts[0]), int(parts[1])
    except ValueError:
        return None


def is_computer(seat):
    while True:
        answer = input("Is player {} a computer? [y/n] ".format(seat)).strip().lower()
        if answer.startswith("y"):
            return True
        if answer.startswith("n"):
            return False


def setup():
    players = []
    computers = [is_computer(1), is_computer(2)]
    for seat in (1, 2):
        if computers[seat - 1]:
            name = "Computer" if computers.count(True) == 1 else "Computer {}".format(seat)
        else:
            name = input("Player {}'s name: ".format(seat))
        players.append({"name": name, "computer": computers[seat - 1]})
    while True:
        try:
            board = [int(word) for word in input("Board: ").split()]
        except ValueError:
            print("The board is a list of numbers, like 5 4 3 2 1")
            continue
        if board and min(board) >= 0 and max(board) > 0:
            return players, board
        print("The board must have at least one element.")


def play(players, board):
    print(present_board(board))
    turn = 0
    while True:
        player = players[turn]
        if player["computer"]:
            input("Press Enter to let the computer move")
            row, taken = winning_move(board)
            print("{} plays {}, {}".format(player["name"], row, taken))
        else:
            while True:
                move = parse_move(input("{}, your move (row, elements): ".format(player["name"])))
                if move is None:
                    print("I need two numbers: the row and how many elements.")
                    continue
                row, taken = move
                if not 1 <= row <= len(board):
                    print("Row {} is not on the board.".format(row))
                elif not 1 <= taken <= board[row - 1]:
                    print("You can take between 1 and {} from row {}.".format(board[row - 1], row))
                else:
                    break
        board[row - 1] -= taken
        print(present_board(board))
        if not any(board):
            print("Victory for {}".format(player["name"]))
            return
        turn = (turn + 1) % 2


if __name__ == "__main__":
    play(*setup())
