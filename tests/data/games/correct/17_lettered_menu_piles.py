# Style: a lettered menu on its own lines ("a) two players", "b) play against the computer",
# "c) watch the computer play itself"); names only for humans; board fixed 3 4 5 drawn
# "Pile 1: III"; moves in two prompts ("pick a pile", "How many sticks?"); the winner
# "Congrats Ada, you took the last stick and won!".
import random
try:
    input = raw_input
except NameError:
    pass

def nimsum(b):
    x = 0
    for v in b:
        x ^= v
    return x

def cpu(b):
    x = nimsum(b)
    if x:
        for i, v in enumerate(b):
            if v ^ x < v:
                return i, v - (v ^ x)
    i = random.choice([k for k, v in enumerate(b) if v])
    return i, random.randint(1, b[i])

print("=== NIM ===")
print("Game modes:")
print("  a) two players")
print("  b) play against the computer")
print("  c) watch the computer play itself")
m = input("Your choice: ").strip().lower()
while m not in "abc" or not m:
    m = input("Please pick a, b or c: ").strip().lower()
names = []
if m == "a":
    names = [input("Name of player one: "), input("Name of player two: ")]
elif m == "b":
    names = [input("Your name: "), "Computer"]
else:
    names = ["Computer A", "Computer B"]
cpus = [m == "c", m != "a"]
board = [3, 4, 5]
t = 0
while sum(board) > 0:
    for i, v in enumerate(board):
        print("Pile %d: %s" % (i + 1, "I" * v))
    if cpus[t]:
        r, n = cpu(board)
        print("%s takes %d from pile %d" % (names[t], n, r + 1))
    else:
        r = input("%s, pick a pile: " % names[t])
        n = input("How many sticks? ")
        if not (r.isdigit() and n.isdigit()):
            print("Numbers only!")
            continue
        r, n = int(r) - 1, int(n)
        if r < 0 or r >= len(board) or n < 1 or n > board[r]:
            print("You can't do that.")
            continue
    board[r] -= n
    if sum(board) == 0:
        print("Congrats %s, you took the last stick and won!" % names[t])
    t = 1 - t
