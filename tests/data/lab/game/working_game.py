# A game in the style of the lab's reference game: the players and the board are fixed in the
# code, the board is drawn before every turn, an illegal move makes the same player try again
# (without a word), and the winner is announced as soon as the board is empty. A line with no
# comma crashes it, as it crashes the reference.
from present_board import *
from ui import *
from optimal_move import *
from make_move import *

try:
    input = raw_input
except NameError:
    pass


def play_nim(player1, player2, board):
    mover, waiting = player1, player2
    while not is_board_empty(board):
        print(present_board(board))
        if is_human(mover):
            row, elements = input("make a move {} (row, elements)".format(mover)).split(",")
            board, moved = make_move(board, int(row), int(elements))
        else:
            row, elements = optimal_move(board)
            print(mover, "makes a move", row, elements)
            board, moved = make_move(board, row, elements)
        if moved:
            mover, waiting = waiting, mover
    print(waiting, "wins")


you = "Put your name here"
computer = "Clever Computer"
print("I challenge you mighty", you, "for a duel of Nim!")
play_nim(you, computer, [5, 4, 3, 2, 1])
