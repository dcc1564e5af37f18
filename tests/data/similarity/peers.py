# -*- coding: utf-8 -*-
"""Runs the peers on the labelled class and writes their pairs for score.py: copydetect
(PyPI) and Dolos (npm's @dodona/dolos-lib), each plain and with the lab's starter file
given as template code. Install them outside the repository first (see README.md):

    python3 -m venv ~/.cache/nimlab/simpeers-venv
    ~/.cache/nimlab/simpeers-venv/bin/pip install copydetect==0.5.0
    npm install --prefix ~/.cache/nimlab/dolos @dodona/dolos-lib@3.5.1

    ~/.cache/nimlab/simpeers-venv/bin/python peers.py OUT_FOLDER

writes OUT_FOLDER/copydetect.json, copydetect-template.json, dolos.json, dolos-template.json.
"""
from __future__ import print_function

import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
# Where the class and its labels are: here, or the folder SIMILARITY_CLASS names (a variant
# written by `make_class.py --even`).
DATA = os.environ.get("SIMILARITY_CLASS", HERE)
LAB = os.path.join(HERE, "..", "..", "..", "exercises")
DOLOS = os.path.expanduser("~/.cache/nimlab/dolos")


def exercises():
    """The exercises the class's labels.json labels."""
    with open(os.path.join(DATA, "labels.json")) as f:
        return sorted(json.load(f)["exercises"])


DOLOS_SCRIPT = r"""
const { Dolos } = require("@dodona/dolos-lib");
(async () => {
  const [files, template] = JSON.parse(require("fs").readFileSync(0, "utf8"));
  const options = { language: "python" };
  const dolos = new Dolos(options);
  const report = template
    ? await dolos.analyzePaths(files.concat([template]))
    : await dolos.analyzePaths(files);
  const out = [];
  for (const pair of report.allPairs()) {
    const a = pair.leftFile.path, b = pair.rightFile.path;
    if (a === template || b === template) continue;
    out.push([a, b, pair.similarity]);
  }
  process.stdout.write(JSON.stringify(out));
})();
"""


def class_files(exercise, into):
    """Each student's file for `exercise`, copied as <student>.py into `into`."""
    folder = os.path.join(DATA, "class")
    names = {}
    for student in sorted(os.listdir(folder)):
        source = os.path.join(folder, student, exercise + ".py")
        if os.path.exists(source):
            target = os.path.join(into, student + ".py")
            shutil.copy(source, target)
            names[target] = student
    return names


def copydetect_pairs(exercise, template):
    from copydetect import CopyDetector
    work = tempfile.mkdtemp()
    try:
        files = os.path.join(work, "class")
        os.mkdir(files)
        names = class_files(exercise, files)
        boiler = []
        if template:
            os.mkdir(os.path.join(work, "starter"))
            shutil.copy(os.path.join(LAB, exercise, "stub.py"), os.path.join(work, "starter", "stub.py"))
            boiler = [os.path.join(work, "starter")]
        detector = CopyDetector(test_dirs=[files], extensions=["py"], boilerplate_dirs=boiler,
                                display_t=0.0, autoopen=False, silent=True, same_name_only=False)
        detector.run()
        matrix = detector.similarity_matrix
        tested = [names[os.path.abspath(f)] if os.path.abspath(f) in names else names.get(f) for f in detector.test_files]
        pairs = []
        for i in range(len(tested)):
            for j in range(i + 1, len(tested)):
                score = max(float(matrix[i][j][0]), float(matrix[j][i][0]))
                pairs.append({"exercise": exercise, "a": tested[i], "b": tested[j], "score": max(score, 0.0)})
        return pairs
    finally:
        shutil.rmtree(work)


def dolos_pairs(exercise, template):
    work = tempfile.mkdtemp()
    try:
        names = class_files(exercise, work)
        stub = None
        if template:
            stub = os.path.join(work, "zz-starter-template.py")
            shutil.copy(os.path.join(LAB, exercise, "stub.py"), stub)
        script = os.path.join(work, "run.js")
        with open(script, "w") as f:
            f.write(DOLOS_SCRIPT)
        env = dict(os.environ, NODE_PATH=os.path.join(DOLOS, "node_modules"))
        out = subprocess.run(["node", script], input=json.dumps([sorted(names), stub]).encode(),
                             stdout=subprocess.PIPE, env=env, check=True).stdout
        pairs = []
        for a, b, score in json.loads(out):
            if a in names and b in names:
                pairs.append({"exercise": exercise, "a": names[a], "b": names[b], "score": score})
        return pairs
    finally:
        shutil.rmtree(work)


def main():
    out = sys.argv[1]
    if not os.path.isdir(out):
        os.makedirs(out)
    for tool, run in [("copydetect", copydetect_pairs), ("dolos", dolos_pairs)]:
        for template in [False, True]:
            name = tool + ("-template" if template else "")
            pairs = []
            for exercise in exercises():
                pairs.extend(run(exercise, template))
            with open(os.path.join(out, name + ".json"), "w") as f:
                json.dump({"tool": name, "pairs": pairs}, f)
            print("wrote", name)


if __name__ == "__main__":
    main()
