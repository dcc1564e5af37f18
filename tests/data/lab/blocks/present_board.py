if __name__ == "__main__":
    try:
        input = raw_input      # Python 2
    except NameError:
        pass
    line = input("")
    board = [int(i) for i in line.split()]
    print(present_board(board))
