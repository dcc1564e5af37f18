# Style: close to the lab's reference game, but set up in the lab's convention ("Player 1's
# name: ", "Player 2's name: ", "Board: "). An illegal move is refused without a word (the same
# player is simply asked again), the empty board is not drawn, the computer moves silently.
# Boards in present_board's format; moves "row, elements" (a comma or a space); "Ada wins".
from __future__ import print_function, division

try:
    input = raw_input
except NameError:
    pass


def present_board(board):
    out = "Nim:\n"
    for i, n in enumerate(board):
        out += str(i + 1) + ":" + " X" * n + "\n"
    return out.rstrip("\n")


def optimal_move(board):
    x = 0
    for n in board:
        x ^= n
    for i, n in enumerate(board):
        if x and n ^ x < n:
            return i + 1, n - (n ^ x)
    for i, n in enumerate(board):
        if n:
            return i + 1, n


def get_move(name):
    text = input(name + ", your move: ").replace(",", " ").split()
    if len(text) == 2 and text[0].isdigit() and text[1].isdigit():
        return int(text[0]), int(text[1])
    return 0, 0


def play_nim(player1, player2, board):
    players = [player1, player2]
    turn = 0
    while True:
        name = players[turn]
        print(present_board(board))
        while True:
            if "computer" in name.lower():
                row, n = optimal_move(board)
            else:
                row, n = get_move(name)
            if 1 <= row <= len(board) and 1 <= n <= board[row - 1]:
                break
        board[row - 1] -= n
        if sum(board) == 0:
            print(name + " wins")
            return
        turn = 1 - turn


player1 = input("Player 1's name: ")
player2 = input("Player 2's name: ")
board = []
while sum(board) == 0:
    try:
        board = [int(x) for x in input("Board: ").split()]
        if min(board) < 0:
            board = []
    except ValueError:
        board = []
play_nim(player1, player2, board)
