from __future__ import print_function
try:
    input = raw_input  # Python 2
except NameError:
    pass

# Ask for words until an empty line, printing each one backwards.
