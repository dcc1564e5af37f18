# Style: no functions, one big loop, as a beginner writes it. Names in the lab's convention
# ("Player 1's name: ", "Player 2's name: "; "computer" in a name means the computer plays),
# the board typed with commas; drawn as "Row 1: OOO"; moves "row elements"; the computer moves
# silently; winner "Ada is the champion!". Python 2 flavour (% formatting).
from __future__ import print_function, division

try:
    input = raw_input
except NameError:
    pass

p1 = input("Player 1's name: ")
p2 = input("Player 2's name: ")
board = []
while len(board) == 0:
    line = input("Enter the row sizes separated by commas: ")
    try:
        board = [int(x) for x in line.split(",")]
    except ValueError:
        print("Use numbers separated by commas, like 3,4,5")
        board = []
        continue
    if sum(board) == 0 or min(board) < 0:
        print("That board can't be played.")
        board = []

names = [p1, p2]
turn = 0
for i in range(len(board)):
    print("Row %d: %s" % (i + 1, "O" * board[i]))
while True:
    name = names[turn]
    if "computer" in name.lower():
        x = 0
        for n in board:
            x = x ^ n
        row = -1
        if x != 0:
            for i in range(len(board)):
                if board[i] ^ x < board[i]:
                    row = i
                    count = board[i] - (board[i] ^ x)
                    break
        if row == -1:
            for i in range(len(board)):
                if board[i] > 0:
                    row = i
                    count = 1
                    break
    else:
        move = input("%s, type row and amount: " % name).split()
        if len(move) != 2 or not move[0].isdigit() or not move[1].isdigit():
            print("Type two numbers, for example: 2 3")
            continue
        row = int(move[0]) - 1
        count = int(move[1])
        if row < 0 or row >= len(board) or count < 1 or count > board[row]:
            print("Not allowed! Try again.")
            continue
    board[row] = board[row] - count
    for i in range(len(board)):
        print("Row %d: %s" % (i + 1, "O" * board[i]))
    if sum(board) == 0:
        print("%s is the champion!" % name)
        break
    if turn == 0:
        turn = 1
    else:
        turn = 0
