if __name__ == "__main__":
    import json, sys
    case = json.loads(sys.stdin.read())
    board = case["board"]
    print(json.dumps(make_move(board, case["row"], case["elements"])))
    assert board == case["board"]
