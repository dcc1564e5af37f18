# -*- coding: utf-8 -*-
from __future__ import print_function, division


def is_human(name):
    while True:
        print("thinking about", name)


if __name__ == "__main__":
    import json
    import sys

    case = json.loads(sys.stdin.read())
    print(json.dumps(is_human(case["input"])))
