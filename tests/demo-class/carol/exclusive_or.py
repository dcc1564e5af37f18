def exclusive_or(a, b):
    if a:
        if b:
            return 0
        return 1
    if b:
        return 1
    return 0


if __name__ == "__main__":
    import sys

    a, b = [int(word) for word in sys.stdin.read().split()]
    print exclusive_or(a, b)
