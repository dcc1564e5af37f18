if __name__ == "__main__":
    import json, sys
    case = json.loads(sys.stdin.read())
    if case["type"] == "bin_num":
        print(json.dumps(binary_numeral(case["value"])))
    else:
        print(json.dumps(numeral_binary(case["value"])))
