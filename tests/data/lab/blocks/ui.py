if __name__ == "__main__":
    import json, sys
    case = json.loads(sys.stdin.read())
    if case["type"] == "is_human":
        print(json.dumps(is_human(case["input"])))
    if case["type"] == "is_board_empty":
        print(json.dumps(is_board_empty(case["input"])))
