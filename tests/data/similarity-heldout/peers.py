#!/usr/bin/env python3
"""Runs copydetect and Dolos on the class, per exercise, and writes PAIRS files for score.py.

Installs nothing. Run it with the Python of a venv that has copydetect, and give the folder
where @dodona/dolos-lib is installed (npm install --prefix DIR @dodona/dolos-lib@3.5.1):

  ~/.cache/nimlab/simpeers-venv/bin/python peers.py --dolos ~/.cache/nimlab/dolos --out OUT
"""
import argparse
import itertools
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EXERCISES = os.path.join(HERE, "..", "..", "..", "exercises")

DOLOS_MJS = r"""
import { readFileSync } from "fs";
const job = JSON.parse(readFileSync(0, "utf8"));
const lib = await import(job.lib + "/node_modules/@dodona/dolos-lib/dist/index.js");
const dolos = new lib.Dolos({ language: "python" });
const report = await dolos.analyzePaths(job.files, job.ignore || undefined);
const out = report.allPairs().map(p => [p.leftFile.path, p.rightFile.path, p.similarity]);
process.stdout.write(JSON.stringify(out));
"""


def students_of(cls, ex):
    return sorted(s for s in os.listdir(cls) if os.path.exists(os.path.join(cls, s, ex + ".py")))


def run_copydetect(cls, exercises, template):
    from copydetect import CodeFingerprint, compare_files
    pairs = []
    for ex in exercises:
        bp = []
        if template:
            bp = list(CodeFingerprint(os.path.join(EXERCISES, ex, "stub.py"), 25, 6).hashes)
        fps = {}
        for s in students_of(cls, ex):
            fps[s] = CodeFingerprint(os.path.join(cls, s, ex + ".py"), 25, 6, boilerplate=bp)
        for a, b in itertools.combinations(sorted(fps), 2):
            _, (s1, s2), _ = compare_files(fps[a], fps[b])
            pairs.append({"exercise": ex, "a": a, "b": b, "score": max(s1, s2)})
    return pairs


def run_dolos(cls, exercises, template, lib):
    script = os.path.join(os.path.abspath(lib), "nimlab-peers.mjs")
    with open(script, "w") as f:
        f.write(DOLOS_MJS)
    pairs = []
    for ex in exercises:
        files = [os.path.abspath(os.path.join(cls, s, ex + ".py")) for s in students_of(cls, ex)]
        job = {"lib": os.path.abspath(lib), "files": files,
               "ignore": os.path.abspath(os.path.join(EXERCISES, ex, "stub.py")) if template else None}
        out = subprocess.run(["node", script], input=json.dumps(job), capture_output=True,
                             text=True, check=True).stdout
        for a, b, sim in json.loads(out):
            sa = os.path.basename(os.path.dirname(a))
            sb = os.path.basename(os.path.dirname(b))
            pairs.append({"exercise": ex, "a": sa, "b": sb, "score": sim})
    return pairs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--class", dest="cls", default=os.path.join(HERE, "class"))
    ap.add_argument("--labels", default=os.path.join(HERE, "labels.json"))
    ap.add_argument("--dolos", help="folder where @dodona/dolos-lib is installed")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    exercises = sorted(json.load(open(args.labels))["exercises"])
    if not os.path.isdir(args.out):
        os.makedirs(args.out)
    runs = [("copydetect", False), ("copydetect+template", True)]
    if args.dolos:
        runs += [("dolos", False), ("dolos+template", True)]
    for name, template in runs:
        if name.startswith("copydetect"):
            pairs = run_copydetect(args.cls, exercises, template)
        else:
            pairs = run_dolos(args.cls, exercises, template, args.dolos)
        with open(os.path.join(args.out, name + ".json"), "w") as f:
            json.dump({"tool": name, "pairs": pairs}, f)
        sys.stderr.write("%s: %d pairs\n" % (name, len(pairs)))


if __name__ == "__main__":
    main()
