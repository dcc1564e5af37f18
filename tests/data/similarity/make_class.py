# -*- coding: utf-8 -*-
"""Writes the labelled class of tests/data/similarity (class/ and labels.json).

Independent answers are built the way a class writes them: each student picks, function by
function, one of the ways people solve it (the usual way far more often than the rare ones),
and writes it with their own habits: names in their language, comments or none, spacing,
whether they keep the starter's docstrings. Copies take another student's file and disguise
it: new names, comments and spacing, functions or statements reordered, dead code, debugging
prints, loops rewritten, expressions rewritten, a line-by-line paraphrase (all of those
together), or two sources' functions put together.

Run from anywhere: python3 make_class.py. The output is the same every time (one seed).
`SIMILARITY_CLASS=DIR python3 make_class.py --even` writes a more varied class into DIR.
"""
from __future__ import print_function

import json
import os
import random
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# Where the class and its labels are: here, or the folder SIMILARITY_CLASS names (a variant
# written by `make_class.py --even`).
DATA = os.environ.get("SIMILARITY_CLASS", HERE)
LAB = os.path.join(HERE, "..", "..", "..", "exercises")
RNG = random.Random(44)
# `--even`: a more varied class, into the folder SIMILARITY_CLASS names: every way of writing a
# function equally likely, habits mixed role by role more often, three names of their own.
EVEN = "--even" in sys.argv[1:]

# Ways to write each function: (weight, body). {names} are the student's own names.
WAYS = {
    "nim_sum": {
        "nim_sum": [
            (10, "{acc} = 0\nfor {item} in board:\n    {acc} ^= {item}\nreturn {acc}"),
            (4, "{acc} = 0\nfor {idx} in range(len(board)):\n    {acc} = {acc} ^ board[{idx}]\nreturn {acc}"),
            (2, "from functools import reduce\nreturn reduce(lambda {item}, {tmp}: {item} ^ {tmp}, board, 0)"),
            (2, "{idx} = 0\n{acc} = 0\nwhile {idx} < len(board):\n    {acc} ^= board[{idx}]\n    {idx} += 1\nreturn {acc}"),
            (1, "if len(board) == 0:\n    return 0\nreturn board[0] ^ nim_sum(board[1:])"),
            (1, "if not board:\n    return 0\n{acc} = board[0]\nfor {item} in board[1:]:\n    {acc} = {acc} ^ {item}\nreturn {acc}"),
            (1, "{acc} = 0\nfor {item} in board:\n    {acc} = ({acc} | {item}) & ~({acc} & {item})\nreturn {acc}"),
        ],
        "is_n_position": [
            (10, "return nim_sum(board) == 0"),
            (4, "if nim_sum(board) == 0:\n    return True\nelse:\n    return False"),
            (2, "{tmp} = nim_sum(board)\nreturn {tmp} == 0"),
            (1, "return not nim_sum(board)"),
        ],
        "is_p_position": [
            (8, "return nim_sum(board) != 0"),
            (4, "return not is_n_position(board)"),
            (3, "if nim_sum(board) != 0:\n    return True\nreturn False"),
            (1, "{tmp} = nim_sum(board)\nreturn {tmp} > 0"),
        ],
    },
    "bin_num": {
        "numeral_binary": [
            (6, "if numeral == 0:\n    return [0]\n{res} = []\nwhile numeral > 0:\n    {res}.append(numeral % 2)\n    numeral = numeral // 2\n{res}.reverse()\nreturn {res}"),
            (4, "if numeral == 0:\n    return [0]\n{res} = []\nwhile numeral > 0:\n    {res}.insert(0, numeral % 2)\n    numeral //= 2\nreturn {res}"),
            (2, "{res} = []\n{n} = numeral\nwhile True:\n    {res} = [{n} % 2] + {res}\n    {n} = {n} // 2\n    if {n} == 0:\n        break\nreturn {res}"),
            (2, "{power} = 1\nwhile {power} * 2 <= numeral:\n    {power} *= 2\n{res} = []\nwhile {power} >= 1:\n    if numeral >= {power}:\n        {res}.append(1)\n        numeral -= {power}\n    else:\n        {res}.append(0)\n    {power} //= 2\nreturn {res}"),
            (1, "if numeral < 2:\n    return [numeral]\nreturn numeral_binary(numeral // 2) + [numeral % 2]"),
            (2, "{res} = []\nwhile True:\n    numeral, {bit} = divmod(numeral, 2)\n    {res}.append({bit})\n    if numeral == 0:\n        break\nreturn {res}[::-1]"),
        ],
        "binary_numeral": [
            (6, "{acc} = 0\nfor {bit} in binary:\n    {acc} = {acc} * 2 + {bit}\nreturn {acc}"),
            (4, "{acc} = 0\n{power} = 1\nfor {bit} in reversed(binary):\n    {acc} += {bit} * {power}\n    {power} *= 2\nreturn {acc}"),
            (3, "{acc} = 0\nfor {idx} in range(len(binary)):\n    {acc} += binary[{idx}] * 2 ** (len(binary) - 1 - {idx})\nreturn {acc}"),
            (1, "return int(\"\".join(str({bit}) for {bit} in binary), 2)"),
            (1, "{acc} = 0\n{idx} = len(binary) - 1\n{power} = 0\nwhile {idx} >= 0:\n    {acc} += binary[{idx}] * (2 ** {power})\n    {idx} -= 1\n    {power} += 1\nreturn {acc}"),
        ],
    },
    "bitwise_xor": {
        "bitwise_exclusive_or": [
            (5, "{res} = 0\n{power} = 1\nwhile a > 0 or b > 0:\n    {bit_a} = a % 2\n    {bit_b} = b % 2\n    if {bit_a} != {bit_b}:\n        {res} += {power}\n    a //= 2\n    b //= 2\n    {power} *= 2\nreturn {res}"),
            (4, "{lines} = []\nwhile a > 0 or b > 0:\n    {lines}.append((a % 2 + b % 2) % 2)\n    a = a // 2\n    b = b // 2\n{res} = 0\nfor {bit} in reversed({lines}):\n    {res} = {res} * 2 + {bit}\nreturn {res}"),
            (3, "return (a | b) & ~(a & b)"),
            (2, "return (a | b) - (a & b)"),
            (2, "{text} = format(a, 'b')\n{tmp} = format(b, 'b')\n{n} = max(len({text}), len({tmp}))\n{text} = {text}.zfill({n})\n{tmp} = {tmp}.zfill({n})\n{res} = ''\nfor {idx} in range({n}):\n    if {text}[{idx}] == {tmp}[{idx}]:\n        {res} += '0'\n    else:\n        {res} += '1'\nreturn int({res}, 2)"),
            (1, "if a == 0 and b == 0:\n    return 0\nreturn (a % 2 + b % 2) % 2 + 2 * bitwise_exclusive_or(a // 2, b // 2)"),
            (2, "{res} = 0\nfor {k} in range(64):\n    {bit_a} = (a >> {k}) & 1\n    {bit_b} = (b >> {k}) & 1\n    if {bit_a} != {bit_b}:\n        {res} = {res} | (1 << {k})\nreturn {res}"),
        ],
    },
    "make_move": {
        "make_move": [
            (6, "{copy} = list(board)\nif row < 1 or row > len({copy}):\n    return {copy}, False\nif elements < 1 or elements > {copy}[row - 1]:\n    return {copy}, False\n{copy}[row - 1] -= elements\nreturn {copy}, True"),
            (4, "{copy} = board[:]\n{idx} = row - 1\nif 0 <= {idx} < len({copy}) and 0 < elements <= {copy}[{idx}]:\n    {copy}[{idx}] = {copy}[{idx}] - elements\n    return {copy}, True\nreturn {copy}, False"),
            (2, "{copy} = [{item} for {item} in board]\n{valid} = True\nif row <= 0 or row > len(board):\n    {valid} = False\nelif elements <= 0 or elements > board[row - 1]:\n    {valid} = False\nif {valid}:\n    {copy}[row - 1] -= elements\nreturn {copy}, {valid}"),
            (2, "{copy} = list(board)\ntry:\n    if row < 1 or elements < 1:\n        raise IndexError\n    if {copy}[row - 1] < elements:\n        return {copy}, False\n    {copy}[row - 1] -= elements\n    return {copy}, True\nexcept IndexError:\n    return {copy}, False"),
            (1, "{res} = []\n{valid} = 1 <= row <= len(board) and 1 <= elements <= board[row - 1]\nfor {idx} in range(len(board)):\n    if {valid} and {idx} == row - 1:\n        {res}.append(board[{idx}] - elements)\n    else:\n        {res}.append(board[{idx}])\nreturn {res}, {valid}"),
        ],
    },
    "present_board": {
        "present_board": [
            (6, "{lines} = [\"Nim:\"]\nfor {idx} in range(len(board)):\n    {lines}.append(str({idx} + 1) + \":\" + \" X\" * board[{idx}])\nreturn \"\\n\".join({lines})"),
            (4, "{text} = \"Nim:\"\nfor {idx}, {item} in enumerate(board):\n    {text} += \"\\n\" + str({idx} + 1) + \":\" + \" X\" * {item}\nreturn {text}"),
            (3, "{text} = \"Nim:\"\n{idx} = 1\nfor {item} in board:\n    {text} = {text} + \"\\n\" + str({idx}) + \":\"\n    for {k} in range({item}):\n        {text} = {text} + \" X\"\n    {idx} += 1\nreturn {text}"),
            (2, "return \"\\n\".join([\"Nim:\"] + [\"%d:%s\" % ({idx} + 1, \" X\" * {item}) for {idx}, {item} in enumerate(board)])"),
            (1, "{lines} = [\"Nim:\"]\nfor {idx}, {item} in enumerate(board, 1):\n    {tmp} = str({idx}) + \":\"\n    for {k} in range({item}):\n        {tmp} += \" X\"\n    {lines}.append({tmp})\nreturn \"\\n\".join({lines})"),
            (2, "{lines} = [\"Nim:\"]\nfor {idx} in range(len(board)):\n    {lines}.append(\"{{}}:{{}}\".format({idx} + 1, \" X\" * board[{idx}]))\nreturn \"\\n\".join({lines})"),
        ],
    },
}

ROLES = ["acc", "idx", "item", "res", "tmp", "power", "bit", "bit_a", "bit_b", "copy", "text", "lines", "k", "valid", "n"]

HABITS = [
    (10, dict(acc="result", idx="i", item="x", res="result", tmp="value", power="power", bit="bit", bit_a="bit_a", bit_b="bit_b", copy="new_board", text="text", lines="lines", k="j", valid="valid", n="n")),
    (5, dict(acc="s", idx="i", item="x", res="r", tmp="t", power="p", bit="d", bit_a="da", bit_b="db", copy="nb", text="s", lines="l", k="j", valid="ok", n="m")),
    (4, dict(acc="total", idx="index", item="size", res="result", tmp="value", power="power_of_two", bit="digit", bit_a="digit_a", bit_b="digit_b", copy="board_copy", text="output", lines="lines", k="count", valid="is_valid", n="length")),
    (3, dict(acc="soma", idx="indice", item="valor", res="resultado", tmp="aux", power="potencia", bit="digito", bit_a="bit_a", bit_b="bit_b", copy="novo", text="saida", lines="linhas", k="j", valid="valido", n="tamanho")),
    (2, dict(acc="suma", idx="i", item="elem", res="resultado", tmp="temp", power="potencia", bit="bit", bit_a="bita", bit_b="bitb", copy="tablero", text="salida", lines="lineas", k="j", valid="es_valido", n="largo")),
    (2, dict(acc="runningTotal", idx="idx", item="rowSize", res="resultList", tmp="tmpVal", power="powerTwo", bit="curBit", bit_a="bitA", bit_b="bitB", copy="boardCopy", text="outStr", lines="outLines", k="j", valid="isValid", n="num")),
]

# Names a student may choose for one role instead of their habit's.
PERSONAL = ["acumulador", "answer", "out", "accum", "res2", "counter", "pos", "cur", "current", "val", "my_list", "digits", "temp_board", "kk", "result_value", "number", "w"]

COMMENTS = {
    "en": ["# go through every row", "# start from zero", "# the answer", "# build it step by step", "# check the input first", "# loop until done", "# xor trick", "# keep going"],
    "pt": ["# percorre todas as linhas", "# comeca em zero", "# a resposta", "# monta passo a passo", "# verifica a entrada", "# repete ate acabar", "# truque do xor", "# continua"],
    "es": ["# recorre todas las filas", "# empieza en cero", "# la respuesta", "# lo construye paso a paso", "# revisa la entrada", "# repite hasta terminar", "# truco del xor", "# sigue"],
}


def pick(weighted):
    if EVEN:
        weighted = [(1, value) for _, value in weighted]
    total = sum(w for w, _ in weighted)
    at = RNG.uniform(0, total)
    for weight, value in weighted:
        at -= weight
        if at <= 0:
            return value
    return weighted[-1][1]


def new_style():
    """A student's habits: mostly one way of naming, each name of it kept or not."""
    names = dict(pick(HABITS))
    for role in ROLES:
        if RNG.random() < (0.6 if EVEN else 0.35):
            names[role] = pick(HABITS)[role]
    for _ in range(3 if EVEN else 1):
        if EVEN or RNG.random() < 0.4:
            names[RNG.choice(ROLES)] = RNG.choice(PERSONAL)
    return {
        "names": names,
        "comments": RNG.choice([None, None, None, "en", "en", "pt", "es"]),
        "density": RNG.choice([0.15, 0.3, 0.5]),
        "tight": RNG.random() < 0.2,
        "docstrings": RNG.random() < 0.8,
        "your_code_here": RNG.random() < 0.25,
    }


def stub_parts(exercise):
    """The starter file as (head, [(function name, def line, docstring lines, marker)], tail)."""
    text = open(os.path.join(LAB, exercise, "stub.py")).read()
    head, rest = text.split("\n\n\ndef ", 1)
    chunks = ("def " + rest).split("\n\n\n")
    functions = []
    tail = []
    for chunk in chunks:
        if not chunk.startswith("def "):
            tail.append(chunk)
            continue
        lines = chunk.split("\n")
        name = lines[0][4:].split("(")[0]
        body = lines[1:]
        doc_end = 0
        if body and body[0].strip().startswith('"""'):
            doc_end = 1
            while not body[doc_end - 1].rstrip().endswith('"""') or (doc_end == 1 and body[0].strip() == '"""'):
                doc_end += 1
        docstring = body[:doc_end]
        marker = [line for line in body[doc_end:] if line.strip().startswith("# Your code here")]
        functions.append((name, lines[0], docstring, marker[0] if marker else None))
    return head, functions, "\n\n\n".join(tail)


def fill(body, names):
    return body.format(**names)


def tighten(line):
    return re.sub(r" ([=+\-*]) ", r"\1", line) if "==" not in line and "'" not in line and '"' not in line else line


def write_function(definition, docstring, marker, body, style):
    out = [definition]
    if style["docstrings"]:
        out.extend(docstring)
    if marker and style["your_code_here"]:
        out.append(marker)
    for line in body.split("\n"):
        indent = " " * (4 + len(line) - len(line.lstrip()))
        if style["comments"] and RNG.random() < style["density"]:
            out.append(indent + RNG.choice(COMMENTS[style["comments"]]))
        text = line.strip()
        if style["tight"]:
            text = tighten(text)
        out.append(indent + text)
    return "\n".join(out)


def independent(exercise, style):
    """One student's own answer: {function: body}, the ways chosen."""
    return {name: fill(pick(ways), style["names"]) for name, ways in WAYS[exercise].items()}


def assemble(exercise, bodies, style, order=None):
    head, functions, tail = stub_parts(exercise)
    by_name = {f[0]: f for f in functions}
    order = order or [f[0] for f in functions]
    parts = [head]
    for name in order:
        _, definition, docstring, marker = by_name[name]
        parts.append(write_function(definition, docstring, marker, bodies[name], style))
    parts.append(tail)
    gap = "\n\n" if style.get("one_blank") else "\n\n\n"
    return gap.join(parts)


# Disguises: each turns a copy's function bodies (or its style, or its order).

def rewrite_loops(body):
    """for loops as while loops."""
    lines = body.split("\n")
    out = []
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"^(\s*)for (\w+) in (.+):$", line)
        if not m:
            out.append(line)
            i += 1
            continue
        indent, var, iterable = m.groups()
        j = i + 1
        while j < len(lines) and (len(lines[j]) - len(lines[j].lstrip())) > len(indent):
            j += 1
        inner = indent + "    "
        r = re.match(r"^range\(([^,]+)\)$", iterable)
        if r:
            out.append(indent + "%s = 0" % var)
            out.append(indent + "while %s < %s:" % (var, r.group(1)))
            out.extend(lines[i + 1:j])
            out.append(inner + "%s += 1" % var)
        else:
            counter = var + "_pos"
            out.append(indent + "%s = 0" % counter)
            out.append(indent + "while %s < len(%s):" % (counter, iterable))
            out.append(inner + "%s = %s[%s]" % (var, iterable, counter))
            out.extend(lines[i + 1:j])
            out.append(inner + "%s += 1" % counter)
        i = j
    return "\n".join(out)


def rewrite_expressions(body):
    body = re.sub(r"(\w+(?:\[[^\]]+\])?) (\+|-|\*|//|\^)= (.+)", r"\1 = \1 \2 (\3)", body)
    body = re.sub(r"(\w+) % 2\b", r"(\1 & 1)", body)
    body = re.sub(r"(\w+) // 2\b", r"(\1 >> 1)", body)
    body = re.sub(r"return (.+) == 0$", r"return not (\1)", body, flags=re.M)
    body = re.sub(r"== 0:", "< 1:", body)
    body = body.replace("len(board) == 0", "not board")
    return body


def dead_code(body, names):
    extra = RNG.choice([
        "{tmp}_unused = len(str({acc}))".replace("{tmp}", names["tmp"]).replace("{acc}", "0"),
        "if False:\n    print(\"never\")",
        "{n}_check = []".replace("{n}", names["n"]),
    ])
    lines = body.split("\n")
    at = RNG.randrange(0, max(1, len(lines) - 1))
    indent = " " * (len(lines[at]) - len(lines[at].lstrip()))
    lines[at:at] = [indent + e for e in extra.split("\n")]
    return "\n".join(lines)


def debug_prints(body):
    lines = body.split("\n")
    out = []
    for line in lines:
        m = re.match(r"^(\s*)(\w+) = ", line)
        out.append(line)
        if m and RNG.random() < 0.5:
            out.append("%sprint(\"debug\", %s)" % (m.group(1), m.group(2)))
    return "\n".join(out)


def reorder_statements(body):
    """Swaps the first two lines when both are simple assignments that do not use each other."""
    lines = body.split("\n")
    for i in range(len(lines) - 1):
        a = re.match(r"^(\w+) = (.+)$", lines[i])
        b = re.match(r"^(\w+) = (.+)$", lines[i + 1])
        if a and b and a.group(1) not in b.group(2) and b.group(1) not in a.group(2):
            lines[i], lines[i + 1] = lines[i + 1], lines[i]
            break
    return "\n".join(lines)


def rename(bodies, old, new):
    out = {}
    for name, body in bodies.items():
        for role in sorted(ROLES, key=lambda r: -len(old[r])):
            if old[role] != new[role]:
                body = re.sub(r"\b%s\b" % re.escape(old[role]), "@@" + role + "@@", body)
        for role in ROLES:
            body = body.replace("@@" + role + "@@", new[role])
        out[name] = body
    return out


DISGUISES = ["rename", "comments", "whitespace", "reorder", "dead_code", "debug_prints", "loops", "expressions", "paraphrase", "partial"]


def disguise(exercise, source, kinds, second=None):
    """A copy of `source` ({'bodies', 'style'}) with the disguises `kinds`."""
    style = dict(source["style"])
    bodies = dict(source["bodies"])
    order = None
    if "paraphrase" in kinds:
        kinds = sorted(set(kinds) | {"rename", "expressions", "comments", "whitespace"})
    if "partial" in kinds and second is not None:
        names = list(bodies)
        taken = RNG.choice(names)
        other = rename({taken: second["bodies"][taken]}, second["style"]["names"], style["names"])
        bodies[taken] = other[taken]
    if "rename" in kinds:
        new = dict(pick([h for h in HABITS if h[1] != style["names"]]))
        new[RNG.choice(ROLES)] = RNG.choice(PERSONAL)
        bodies = rename(bodies, style["names"], new)
        style["names"] = new
    if "comments" in kinds:
        style["comments"] = RNG.choice([c for c in [None, "en", "pt", "es"] if c != style["comments"]])
        style["density"] = RNG.choice([0.2, 0.4])
    if "whitespace" in kinds:
        style["tight"] = not style["tight"]
        style["one_blank"] = True
        style["docstrings"] = not style["docstrings"]
    if "loops" in kinds:
        bodies = {n: rewrite_loops(b) for n, b in bodies.items()}
    if "expressions" in kinds:
        bodies = {n: rewrite_expressions(b) for n, b in bodies.items()}
    if "reorder" in kinds:
        names = list(bodies)
        if len(names) > 1:
            order = list(reversed(names))
        bodies = {n: reorder_statements(b) for n, b in bodies.items()}
    if "dead_code" in kinds:
        name = RNG.choice(list(bodies))
        bodies[name] = dead_code(bodies[name], style["names"])
    if "debug_prints" in kinds:
        bodies = {n: debug_prints(b) for n, b in bodies.items()}
    return {"bodies": bodies, "style": style}, order


FIRST = ["ana", "bruno", "carla", "diego", "elena", "farid", "gabi", "hugo", "ines", "joao", "kemal", "lara", "marco", "nadia", "otto", "paula", "quim", "rosa", "sami", "tania", "ugo", "vera", "wang", "ximena", "yusuf", "zoe", "alba", "bento", "celia", "dario", "eva", "fabio", "gil", "helena", "ivo", "julia", "kai", "lia", "mateus", "nina", "olga", "pedro", "rita", "saul", "teo", "uma", "vitor", "wilma", "xavi", "yara", "zeca", "amir", "bia", "caio", "duda"]
LAST = ["lima", "silva", "costa", "souza", "rocha", "dias", "nunes", "mendes", "pinto", "reis"]


def main():
    if EVEN and DATA == HERE:
        sys.exit("make_class.py --even: name the folder to write in SIMILARITY_CLASS")
    if not os.path.isdir(DATA):
        os.makedirs(DATA)
    out = os.path.join(DATA, "class")
    if os.path.isdir(out):
        shutil.rmtree(out)
    students = ["%s-%s" % (first, LAST[i % len(LAST)]) for i, first in enumerate(FIRST)]
    styles = {s: new_style() for s in students}
    labels = {"exercises": {}}
    for exercise in ["nim_sum", "bin_num", "bitwise_xor", "make_move", "present_board"]:
        order = list(students)
        RNG.shuffle(order)
        copiers = order[:14]
        own = order[14:]
        written = {}
        for student in own:
            written[student] = {"bodies": independent(exercise, styles[student]), "style": styles[student], "order": None}
        copies = []
        multi = len(WAYS[exercise]) > 1
        plans = [["rename"], ["comments", "whitespace"], ["reorder"], ["dead_code", "rename"], ["debug_prints"],
                 ["loops"], ["expressions"], ["paraphrase"], ["loops", "rename", "comments"],
                 ["reorder", "dead_code", "debug_prints"], ["expressions", "whitespace"], ["rename", "loops", "expressions"]]
        plans.append(["partial", "rename"] if multi else ["rename", "comments", "reorder"])
        plans.append(["partial", "comments"] if multi else ["paraphrase", "dead_code"])
        sources = RNG.sample(own, 10)
        for index, (copier, kinds) in enumerate(zip(copiers, plans)):
            # Some sources are copied twice; a few copies copy a copy.
            if index >= 10 and copies and RNG.random() < 0.4:
                source = copies[RNG.randrange(len(copies))]["copy"]
            else:
                source = sources[index % len(sources)]
            second = None
            entry_sources = [source]
            if "partial" in kinds:
                second_name = RNG.choice([s for s in own if s != source])
                second = written[second_name]
                entry_sources.append(second_name)
            copy, function_order = disguise(exercise, written[source], kinds, second)
            copy["order"] = function_order
            written[copier] = copy
            copies.append({"copy": copier, "source": entry_sources, "disguises": kinds})
        for student, work in written.items():
            folder = os.path.join(out, student)
            if not os.path.isdir(folder):
                os.makedirs(folder)
            text = assemble(exercise, work["bodies"], work["style"], work["order"])
            with open(os.path.join(folder, exercise + ".py"), "w") as f:
                f.write(text)
        labels["exercises"][exercise] = {"copies": copies}
    with open(os.path.join(DATA, "labels.json"), "w") as f:
        json.dump(labels, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
