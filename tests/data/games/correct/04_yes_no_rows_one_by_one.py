# Style: yes/no questions ("Should the computer play both sides? (yes/no)", then "Do you want
# to play against the computer? (y/n)"), then "Who goes first? 1) you 2) the computer". The
# board is asked row by row ("How many rows? ", "How many elements in row 1? "...) and drawn
# as "1: 5"; moves typed as "row elements"; winner "Ada is the champion!". Python 2 flavour.
from __future__ import print_function, division

try:
    input = raw_input
except NameError:
    pass


def ask_yes_no(question):
    while 1:
        answer = input(question).strip().lower()
        if answer == "y" or answer == "yes":
            return True
        if answer == "n" or answer == "no":
            return False
        print("Answer with yes or no, please.")


def ask_int(question, lowest):
    while 1:
        try:
            value = int(input(question))
        except ValueError:
            print("That is not a number.")
            continue
        if value < lowest:
            print("It must be at least %d." % lowest)
            continue
        return value


def print_board(board):
    for i in range(len(board)):
        print("%d: %d" % (i + 1, board[i]))


def best_move(board):
    s = 0
    for n in board:
        s = s ^ n
    if s != 0:
        for i in range(len(board)):
            if board[i] ^ s < board[i]:
                return i, board[i] - (board[i] ^ s)
    # no winning move: take one from the biggest row
    big = 0
    for i in range(len(board)):
        if board[i] > board[big]:
            big = i
    return big, 1


def human_turn(name, board):
    while 1:
        line = input("%s, enter row and number of elements (e.g. 3 2): " % name)
        words = line.split()
        if len(words) != 2:
            print("Please type two numbers: the row and how many elements.")
            continue
        try:
            row = int(words[0])
            count = int(words[1])
        except ValueError:
            print("Please type two numbers: the row and how many elements.")
            continue
        if row < 1 or row > len(board):
            print("Row %d does not exist." % row)
        elif count < 1 or count > board[row - 1]:
            print("You can't take %d elements from row %d." % (count, row))
        else:
            return row - 1, count


if ask_yes_no("Should the computer play both sides? (yes/no) "):
    players = ["Computer A", "Computer B"]
    human = [False, False]
elif ask_yes_no("Do you want to play against the computer? (y/n) "):
    name = input("What is your name? ")
    first = ""
    while first not in ["1", "2"]:
        first = input("Who goes first? 1) you 2) the computer ").strip()
    if first == "1":
        players = [name, "The Computer"]
        human = [True, False]
    else:
        players = ["The Computer", name]
        human = [False, True]
else:
    players = [input("Player 1, what is your name? "), input("Player 2, what is your name? ")]
    human = [True, True]

rows = ask_int("How many rows? ", 1)
board = []
for r in range(rows):
    board.append(ask_int("How many elements in row %d? " % (r + 1), 0))
if sum(board) == 0:
    print("An empty board: let's put one element in row 1.")
    board[0] = 1

print_board(board)
p = 0
while True:
    if human[p]:
        i, count = human_turn(players[p], board)
    else:
        i, count = best_move(board)
        print("%s takes %d from row %d." % (players[p], count, i + 1))
    board[i] = board[i] - count
    print_board(board)
    if sum(board) == 0:
        print("%s is the champion!" % players[p])
        break
    p = (p + 1) % 2
