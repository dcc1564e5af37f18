# -*- coding: utf-8 -*-
"""Scores similarity tools on the labelled class: average precision over all pairs, and the
false pairs ranked above the weakest true pair, per exercise.

    python3 score.py PAIRS.json [PAIRS2.json ...]

A PAIRS file is {"tool": "...", "pairs": [{"exercise", "a", "b", "score"}]} (a and b the
students' folder names); `nimlab similarity --format json` writes one. Pairs a tool does not
list score 0; among equal scores false pairs rank first.
"""
from __future__ import print_function

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# Where the class and its labels are: here, or the folder SIMILARITY_CLASS names (a variant
# written by `make_class.py --even`).
DATA = os.environ.get("SIMILARITY_CLASS", HERE)


def truth():
    labels = json.load(open(os.path.join(DATA, "labels.json")))
    out = {}
    for exercise, entry in labels["exercises"].items():
        groups = []
        for copy in entry["copies"]:
            members = set([copy["copy"]] + copy["source"])
            touching = [g for g in groups if g & members]
            for g in touching:
                groups.remove(g)
                members |= g
            groups.append(members)
        pairs = set()
        for g in groups:
            for a in g:
                for b in g:
                    if a < b:
                        pairs.add((a, b))
        out[exercise] = pairs
    return out


def students(exercise):
    folder = os.path.join(DATA, "class")
    return sorted(s for s in os.listdir(folder) if os.path.exists(os.path.join(folder, s, exercise + ".py")))


def score(pairs, exercise, true_pairs):
    names = students(exercise)
    scores = {}
    for p in pairs:
        if p["exercise"] != exercise:
            continue
        key = tuple(sorted((p["a"], p["b"])))
        scores[key] = max(scores.get(key, 0.0), float(p["score"]))
    everything = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    ranked = sorted(everything, key=lambda k: (-scores.get(k, 0.0), k in true_pairs))
    found, total, false_seen, false_above = 0, 0.0, 0, 0
    for rank, key in enumerate(ranked, 1):
        if key in true_pairs:
            found += 1
            total += found / float(rank)
            false_above = false_seen
        else:
            false_seen += 1
    return total / max(1, len(true_pairs)), false_above


def main():
    labels = truth()
    tools = [json.load(open(path)) for path in sys.argv[1:]]
    names = [t.get("tool", os.path.basename(p)) for t, p in zip(tools, sys.argv[1:])]
    print("| exercise | " + " | ".join(names) + " |")
    print("| --- | " + " | ".join("---" for _ in names) + " |")
    sums = [0.0] * len(tools)
    for exercise in sorted(labels):
        cells = []
        for i, tool in enumerate(tools):
            ap, above = score(tool["pairs"], exercise, labels[exercise])
            sums[i] += ap
            cells.append("%.2f (%d)" % (ap, above))
        print("| %s | %s |" % (exercise, " | ".join(cells)))
    print("| mean | %s |" % " | ".join("%.2f" % (s / len(labels)) for s in sums))


if __name__ == "__main__":
    main()
