if __name__ == "__main__":
    try:
        input = raw_input      # Python 2
    except NameError:
        pass
    line = input("")
    a, b = [int(i) for i in line.split()]
    print(bitwise_exclusive_or(a, b))
