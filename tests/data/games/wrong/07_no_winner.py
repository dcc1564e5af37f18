# Mistake: the game ends without saying who won (it prints "Game over!").
# Otherwise correct-game 12 (one-line menu, recursive turns, board printed as a list).
# expect: winner
from __future__ import print_function, division

import random

try:
    input = raw_input
except NameError:
    pass


def nim_sum(board):
    result = 0
    for size in board:
        result ^= size
    return result


def cpu_move(board):
    s = nim_sum(board)
    if s:
        for i in range(len(board)):
            if board[i] ^ s < board[i]:
                return i, board[i] - (board[i] ^ s)
    i = random.choice([i for i in range(len(board)) if board[i]])
    return i, 1


def read_move(name, board):
    text = input("{}, enter row and elements: ".format(name))
    try:
        row, count = [int(part) for part in text.split()]
    except ValueError:
        print("Please enter two numbers separated by a space.")
        return read_move(name, board)
    if row < 1 or row > len(board) or count < 1 or count > board[row - 1]:
        print("Invalid move, try again.")
        return read_move(name, board)
    return row - 1, count


def play(board, players, turn):
    name, human = players[turn]
    if human:
        index, count = read_move(name, board)
    else:
        index, count = cpu_move(board)
        print("{} takes {} from row {}".format(name, count, index + 1))
    board[index] -= count
    print(board)
    if sum(board) == 0:
        return name
    return play(board, players, 1 - turn)


def setup():
    mode = input("Enter 1 for Human vs Human, 2 for Human vs Computer, 3 for Computer vs Computer: ")
    if mode.strip() == "1":
        return [(input("What is your name, player 1? "), True),
                (input("What is your name, player 2? "), True)]
    if mode.strip() == "2":
        me = (input("What is your name? "), True)
        if input("Do you want to go first? (y/n) ").strip().lower().startswith("y"):
            return [me, ("CPU", False)]
        return [("CPU", False), me]
    if mode.strip() == "3":
        return [("CPU 1", False), ("CPU 2", False)]
    print("Please type 1, 2 or 3.")
    return setup()


players = setup()
board = [3, 4, 5]
print(board)
play(board, players, 0)
print("Game over!")
