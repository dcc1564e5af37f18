#!/usr/bin/env python3
"""Scores similarity tools on the labelled class (see README.md).

python3 score.py --labels labels.json --class class PAIRS.json [PAIRS2.json ...] [--json]
"""
import argparse
import itertools
import json
import os


def clusters(copies, students):
    """Union-find: a copy joins its sources' cluster."""
    parent = dict((s, s) for s in students)

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x
    for c in copies:
        for s in c["source"]:
            parent[find(c["copy"])] = find(s)
    return find


def evaluate(scores, truth):
    """Average precision and false pairs above the weakest true pair (ties: false first)."""
    ranked = sorted(truth, key=lambda p: (-scores.get(p, 0.0), truth[p]))
    hits = 0
    ap = 0.0
    n_true = sum(1 for p in truth if truth[p])
    false_seen = 0
    false_above_weakest = 0
    for i, p in enumerate(ranked, 1):
        if truth[p]:
            hits += 1
            ap += hits / float(i)
            false_above_weakest = false_seen
        else:
            false_seen += 1
    return (ap / n_true if n_true else 0.0), false_above_weakest, n_true, len(truth)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--labels", required=True)
    ap.add_argument("--class", dest="cls", required=True)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("pairs", nargs="+")
    args = ap.parse_args()
    labels = json.load(open(args.labels))["exercises"]
    tools = [json.load(open(p)) for p in args.pairs]
    result = {}
    for ex in sorted(labels):
        students = sorted(s for s in os.listdir(args.cls)
                          if os.path.exists(os.path.join(args.cls, s, ex + ".py")))
        find = clusters(labels[ex]["copies"], students)
        truth = dict(((a, b), find(a) == find(b)) for a, b in itertools.combinations(students, 2))
        result[ex] = {}
        for t in tools:
            scores = {}
            for p in t["pairs"]:
                if p["exercise"] != ex:
                    continue
                key = tuple(sorted((p["a"], p["b"])))
                scores[key] = max(scores.get(key, 0.0), float(p["score"]))
            a, fa, nt, n = evaluate(scores, truth)
            result[ex][t["tool"]] = {"ap": a, "false_above_weakest": fa, "true_pairs": nt,
                                     "pairs": n}
    names = [t["tool"] for t in tools]
    result["mean"] = dict((n, {
        "ap": sum(result[e][n]["ap"] for e in labels) / len(labels),
        "false_above_weakest": sum(result[e][n]["false_above_weakest"] for e in labels)
        / float(len(labels))}) for n in names)
    if args.json:
        print(json.dumps(result, indent=1, sort_keys=True))
        return
    print("| exercise | pairs (true) | " + " | ".join("%s AP | %s false above weakest" % (n, n)
                                                     for n in names) + " |")
    print("| --- | --- |" + " --- | --- |" * len(names))
    for ex in sorted(labels):
        r = result[ex]
        first = r[names[0]]
        print("| %s | %d (%d) | " % (ex, first["pairs"], first["true_pairs"]) + " | ".join(
            "%.3f | %d" % (r[n]["ap"], r[n]["false_above_weakest"]) for n in names) + " |")
    print("| mean | | " + " | ".join("%.3f | %.1f" % (result["mean"][n]["ap"],
                                                       result["mean"][n]["false_above_weakest"])
                                      for n in names) + " |")


if __name__ == "__main__":
    main()
