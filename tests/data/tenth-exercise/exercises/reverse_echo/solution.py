from __future__ import print_function
try:
    input = raw_input  # Python 2
except NameError:
    pass

while True:
    word = input("word? ")
    if not word:
        break
    print(word[::-1])
