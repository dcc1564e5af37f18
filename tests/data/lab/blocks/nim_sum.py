if __name__ == "__main__":
    import json, sys
    case = json.loads(sys.stdin.read())
    if case["type"] == "nim_sum":
        print(json.dumps(nim_sum(case["input"])))
    if case["type"] == "is_n_position":
        print(json.dumps(is_n_position(case["input"])))
    if case["type"] == "is_p_position":
        print(json.dumps(is_p_position(case["input"])))
