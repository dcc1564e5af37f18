#!/usr/bin/env python3
"""Writes the labelled similarity benchmark: class/ and labels.json (see README.md).

Each independent solution is one of a handful of hand-written styles per exercise (the
ways a real class solves it), filled with names, comments and small choices drawn per
student. Each copy re-renders a source student's solution with one or more disguises.
The seed is fixed: running this again writes the same files.
"""
import json
import os
import random
import re
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
EXERCISES_DIR = os.path.join(HERE, "..", "..", "..", "exercises")
R = random.Random(4401)

STUDENTS = """ana-lima bruno-costa carla-dias diego-moura elisa-rocha fabio-nunes gabriela-reis
hugo-pinto ines-ferraz joao-batista karen-ortiz lucas-melo marta-sousa nuno-vieira
olga-prado pedro-alves quitéria-sa rafael-gomes sofia-teixeira tiago-ramos ursula-campos
vasco-lopes wanda-silva xavier-mota yara-fonseca zeca-barros alice-neves bernardo-cruz
catarina-luz david-serra eva-martins filipe-rosa gloria-paiva henrique-leal iris-mendes
jorge-coelho laura-pires miguel-santos nadia-farias oscar-duarte paula-vaz ricardo-sales
sara-matos tomas-freitas vera-cardoso lara-rios mateo-garcia lucia-fernandez pablo-ruiz
carmen-diaz emma-brown liam-smith noah-jones olivia-clark raj-patel mei-chen"""
STUDENTS = [s.replace("é", "e") for s in STUDENTS.split()]

LANGS = ["en", "pt", "es"]

# Comments by tag and language; a student writes them, or not.
COMMENTS = {
    "copy": {"en": "copy the board so the original stays the same", "pt": "copiar o tabuleiro",
             "es": "copiamos el tablero"},
    "check": {"en": "check that the move is legal", "pt": "verificar se a jogada e valida",
              "es": "comprobar si la jugada es valida"},
    "apply": {"en": "remove the elements", "pt": "tirar os elementos da fila",
              "es": "quitar los elementos"},
    "loop": {"en": "go through every row", "pt": "percorrer as filas", "es": "recorrer las filas"},
    "xor": {"en": "xor everything together", "pt": "xor de todas as filas",
            "es": "xor de todas las filas"},
    "div": {"en": "divide by 2 and keep the remainder", "pt": "dividir por 2 e guardar o resto",
            "es": "dividir entre 2 y guardar el resto"},
    "rev": {"en": "the digits came out backwards", "pt": "inverter a lista",
            "es": "invertir la lista"},
    "pow": {"en": "each digit is worth a power of 2", "pt": "cada digito vale uma potencia de 2",
            "es": "cada digito vale una potencia de 2"},
    "bits": {"en": "compare the bits one by one", "pt": "comparar bit a bit",
             "es": "comparar bit a bit"},
    "pad": {"en": "same length for both", "pt": "mesmo tamanho", "es": "mismo largo"},
    "win": {"en": "look for a row that makes the nim sum 0", "pt": "procurar a jogada vencedora",
            "es": "buscar la jugada ganadora"},
    "rand": {"en": "no winning move, play something random", "pt": "jogada aleatoria",
             "es": "jugada al azar"},
    "zero": {"en": "nim sum is 0", "pt": "soma nim igual a 0", "es": "suma nim es 0"},
}

POOLS = {
    "nb": ["new_board", "new", "board_copy", "nb", "copia", "novo", "tabuleiro", "b", "result",
           "new_b", "nuevo"],
    "r": ["row", "i", "idx", "fila", "linha", "r"],
    "acc": ["total", "result", "res", "soma", "x", "s", "nimsum", "xor_sum", "n_sum", "suma",
            "ans"],
    "it": ["size", "row", "n", "x", "i", "elem", "pile", "fila", "num", "value"],
    "dig": ["digits", "bits", "result", "lst", "res", "binary", "lista", "out", "b"],
    "num": ["n", "num", "number", "x", "valor", "temp", "q"],
    "bit": ["d", "digit", "bit", "b", "i", "x", "c"],
    "pl": ["place", "power", "p", "mult", "potencia", "factor", "weight"],
    "sa": ["sa", "bin_a", "a_bits", "str_a", "ba", "binA"],
    "sb": ["sb", "bin_b", "b_bits", "str_b", "bb", "binB"],
    "k": ["i", "k", "j", "pos", "idx"],
    "ix": ["i", "index", "idx", "row", "r", "k"],
    "t": ["total", "nim", "s", "ns", "x", "xor_total", "nimsum", "soma"],
    "tgt": ["target", "goal", "new_size", "want", "objetivo", "t", "ns2"],
    "opts": ["rows", "options", "non_empty", "valid", "choices", "possible", "filas"],
    "h": ["to_binary", "dec_to_bin", "binario", "get_bits", "convert", "int_to_bits"],
    "hs": ["calc_nim_sum", "get_nim_sum", "nimsum_of", "soma_nim", "xor_all"],
}


def pick_names(rng, avoid=None):
    names = {}
    taken = set()
    for role, pool in POOLS.items():
        choices = [n for n in pool if n not in taken and (not avoid or n != avoid.get(role))]
        names[role] = rng.choice(choices)
        taken.add(names[role])
    return names


class Student(object):
    """The per-student choices that a rendering depends on."""

    def __init__(self, rng):
        self.names = pick_names(rng)
        self.lang = rng.choice(LANGS)
        self.comments = rng.random() < 0.45
        self.keep_doc = rng.random() < 0.9
        self.keep_here = rng.random() < 0.15
        self.knobs = [rng.random() for _ in range(8)]


def com(ind, tag, st):
    if not st.comments:
        return []
    return [" " * ind + "# " + COMMENTS[tag][st.lang]]


def knob(st, i, p=0.5):
    return st.knobs[i] < p


def nm(st, *roles):
    return [st.names[r] for r in roles]


# ---------------------------------------------------------------- starter pieces

def starter(ex):
    with open(os.path.join(EXERCISES_DIR, ex, "stub.py")) as f:
        text = f.read()
    head = text[: text.index("\ndef ")].rstrip("\n") + "\n"
    block = text[text.index("# Reads one test case"):]
    docs = {}
    for m in re.finditer(r'def (\w+)\(([^)]*)\):\n(    """.*?"""\n)', text, re.S):
        docs[m.group(1)] = (m.group(2), m.group(3))
    return head, docs, block


# ------------------------------------------------------------------ the styles
# A style takes (student, variants) and returns {function: [segments]} in the order written,
# each segment a list of body lines (4-space indent), plus helpers {name: (params, lines)}.
# variants may hold "loop", "expr", "cond", "reorder", "para": a copy's rewrite of the same code.

def mm_copy_line(st, v):
    nb = st.names["nb"]
    c = int(st.knobs[0] * 5)
    if "para" in v:
        c = (c + 2) % 5
    return "    %s = %s" % (nb, ["list(board)", "board[:]", "[x for x in board]", "board.copy()",
                                 "list(board)"][c])


def mm_a(st, v):  # the model's shape, the most common one
    nb = st.names["nb"]
    cp = com(4, "copy", st) + [mm_copy_line(st, v)]
    if "cond" in v or "para" in v:
        chk = com(4, "check", st) + [
            "    ok = 1 <= row <= len(board) and 1 <= elements <= board[row - 1]",
            "    if ok:",
            "        %s[row - 1] = %s[row - 1] - elements" % (nb, nb) if "expr" in v else
            "        %s[row - 1] -= elements" % nb,
            "    return %s, ok" % nb]
        return {"make_move": [cp, chk], "iface": "mm"}
    op = ("%s[row - 1] = %s[row - 1] - elements" % (nb, nb)) if "expr" in v else (
        "%s[row - 1] -= elements" % nb)
    if knob(st, 1, 0.5):
        cond = "1 <= row <= len(board) and 1 <= elements <= board[row - 1]"
    else:
        cond = "row >= 1 and row <= len(board) and elements >= 1 and elements <= board[row - 1]"
    chk = com(4, "check", st) + ["    if %s:" % cond] + com(8, "apply", st) + [
        "        " + op, "        return %s, True" % nb]
    tail = ["    return %s, False" % nb]
    if "reorder" in v:
        chk = ["    if not (%s):" % cond, "        return %s, False" % nb, "    " + op,
               "    return %s, True" % nb]
        tail = []
    return {"make_move": [cp, chk + tail], "iface": "mm"}


def mm_b(st, v):  # early returns of the unchanged board
    nb = st.names["nb"]
    cp = com(4, "copy", st) + [mm_copy_line(st, v)]
    body = ["    if row < 1 or row > len(board):", "        return %s, False" % nb,
            "    if elements < 1 or elements > board[row - 1]:", "        return %s, False" % nb]
    if knob(st, 2, 0.4):
        body[2] = "    if elements <= 0 or board[row - 1] < elements:"
    if "reorder" in v:
        # the copy of the board moves between the two checks, which swap their returns
        body = [body[0], "        return list(board), False"] + cp + body[2:]
        cp = []
    op = ("    %s[row - 1] = %s[row - 1] - elements" % (nb, nb)) if "expr" in v else (
        "    %s[row - 1] -= elements" % nb)
    return {"make_move": [cp, com(4, "check", st) + body + com(4, "apply", st) + [op,
                          "    return %s, True" % nb]], "iface": "mm"}


def mm_c(st, v):  # index variable and a flag
    nb, r = nm(st, "nb", "r")
    r = r if r != "row" else "i"
    lines = [mm_copy_line(st, v), "    %s = row - 1" % r]
    if "cond" in v:
        lines += ["    valid = True if 0 <= %s < len(board) and 0 < elements <= board[%s] else False"
                  % (r, r)]
    else:
        lines += ["    valid = False", "    if 0 <= %s < len(board):" % r,
                  "        if 0 < elements <= board[%s]:" % r, "            valid = True"]
    lines += ["    if valid:"] + com(8, "apply", st)
    if "expr" in v:
        lines += ["        %s[%s] = board[%s] - elements" % (nb, r, r)]
    else:
        lines += ["        %s[%s] -= elements" % (nb, r)]
    lines += ["    return %s, valid" % nb]
    return {"make_move": [lines[:1], lines[1:]], "iface": "mm"}


def mm_d(st, v):  # loop building the new board (beginners)
    nb, k = nm(st, "nb", "k")
    ok = "legal" if knob(st, 3) else "valido"
    if "loop" in v:
        build = ["    %s = []" % nb, "    %s = 0" % k, "    while %s < len(board):" % k,
                 "        %s.append(board[%s])" % (nb, k), "        %s = %s + 1" % (k, k)
                 if "expr" in v else "        %s += 1" % k]
    else:
        build = ["    %s = []" % nb, "    for %s in range(len(board)):" % k,
                 "        %s.append(board[%s])" % (nb, k)]
    chk = ["    %s = False" % ok,
           "    if row > 0 and row <= len(board):",
           "        if elements > 0 and elements <= board[row - 1]:",
           "            %s[row - 1] = board[row - 1] - elements" % nb,
           "            %s = True" % ok,
           "    return %s, %s" % (nb, ok)]
    return {"make_move": [com(4, "copy", st) + build, com(4, "check", st) + chk], "iface": "mm"}


def mm_e(st, v):  # try/except for the index, a bug: row 0 reaches board[-1]
    nb = st.names["nb"]
    lines = [mm_copy_line(st, v), "    try:",
             "        if elements > 0 and %s[row - 1] >= elements:" % nb,
             "            %s[row - 1] -= elements" % nb, "            return %s, True" % nb,
             "    except IndexError:", "        pass", "    return %s, False" % nb]
    return {"make_move": [lines[:1], lines[1:]], "iface": "mm"}


def mm_f(st, v):  # comprehension with enumerate
    nb, k = nm(st, "nb", "k")
    if "loop" in v:
        body = ["        %s = []" % nb, "        for %s, x in enumerate(board):" % k,
                "            %s.append(x - elements if %s == row - 1 else x)" % (nb, k)]
    else:
        body = ["        %s = [x - elements if %s == row - 1 else x for %s, x in enumerate(board)]"
                % (nb, k, k)]
    lines = ["    if 1 <= row <= len(board) and 1 <= elements <= board[row - 1]:"] + body + [
        "        return %s, True" % nb, "    return list(board), False"]
    return {"make_move": [lines[:1], lines[1:]]}


MM_STYLES = [(mm_a, 14), (mm_b, 8), (mm_c, 5), (mm_d, 5), (mm_e, 3), (mm_f, 4)]


# bin_num -------------------------------------------------------------------------

def nb_div(st, v):  # repeated division, the common one
    dig, num = nm(st, "dig", "num")
    lines = []
    if knob(st, 0, 0.3):
        lines += ["    if numeral == 0:", "        return []"]
    lines += ["    %s = []" % dig, "    %s = numeral" % num]
    lines += ["    while %s > 0:" % num] + com(8, "div", st)
    if knob(st, 1, 0.5):
        lines += ["        %s.insert(0, %s %% 2)" % (dig, num)]
        rev = []
    else:
        lines += ["        %s.append(%s %% 2)" % (dig, num)]
        rev = com(4, "rev", st) + (["    %s.reverse()" % dig] if knob(st, 2) else
                                   ["    %s = %s[::-1]" % (dig, dig)])
    lines += ["        %s = %s // 2" % (num, num) if ("expr" in v) != knob(st, 3, 0.4) else
              "        %s //= 2" % num]
    return lines + rev + ["    return %s" % dig]


def nb_divmod(st, v):
    dig, num = nm(st, "dig", "num")
    return ["    %s = []" % dig, "    %s = numeral" % num, "    while %s:" % num,
            "        %s, r = divmod(%s, 2)" % (num, num), "        %s = [r] + %s" % (dig, dig),
            "    return %s" % dig]


def nb_rec(st, v):  # recursion
    if "cond" in v:
        return ["    return [] if numeral == 0 else numeral_binary(numeral // 2) + [numeral % 2]"]
    return ["    if numeral == 0:", "        return []",
            "    return numeral_binary(numeral // 2) + [numeral % 2]"]


def nb_fmt(st, v):  # format() / bin() slicing (bin() is not allowed, some use it anyway)
    if knob(st, 4):
        s = "format(numeral, 'b')"
    else:
        s = "bin(numeral)[2:]"
    if "loop" in v:
        return ["    if numeral == 0:", "        return []", "    %s = []" % st.names["dig"],
                "    for c in %s:" % s, "        %s.append(int(c))" % st.names["dig"],
                "    return %s" % st.names["dig"]]
    return ["    if numeral == 0:", "        return []", "    return [int(c) for c in %s]" % s]


def nb_pow(st, v):  # largest power of two first
    dig, pl = nm(st, "dig", "pl")
    return ["    %s = []" % dig, "    %s = 1" % pl, "    while %s * 2 <= numeral:" % pl,
            "        %s *= 2" % pl, "    while numeral > 0 and %s >= 1:" % pl,
            "        if numeral >= %s:" % pl, "            %s.append(1)" % dig,
            "            numeral -= %s" % pl, "        else:", "            %s.append(0)" % dig,
            "        %s //= 2" % pl, "    return %s" % dig]


def bn_horner(st, v):  # numeral * 2 + digit, the common one
    acc, bit = nm(st, "acc", "bit")
    if "loop" in v:
        return ["    %s = 0" % acc, "    %s = 0" % "k", "    while k < len(binary):",
                "        %s = %s * 2 + binary[k]" % (acc, acc), "        k += 1",
                "    return %s" % acc]
    return ["    %s = 0" % acc, "    for %s in binary:" % bit,
            "        %s = %s * 2 + %s" % (acc, acc, bit), "    return %s" % acc]


def bn_pow(st, v):  # powers by position from the right
    acc, k = nm(st, "acc", "k")
    if "loop" in v:
        return ["    return sum(binary[%s] * 2 ** (len(binary) - 1 - %s) for %s in range(len(binary)))"
                % (k, k, k)]
    lines = ["    %s = 0" % acc] + com(4, "pow", st) + [
        "    for %s in range(len(binary)):" % k]
    if "expr" in v:
        lines += ["        %s = %s + binary[%s] * 2 ** (len(binary) - %s - 1)" % (acc, acc, k, k)]
    else:
        lines += ["        %s += binary[%s] * 2 ** (len(binary) - %s - 1)" % (acc, k, k)]
    return lines + ["    return %s" % acc]


def bn_rev(st, v):  # reversed with enumerate
    acc, k, bit = nm(st, "acc", "k", "bit")
    if bit == k:
        bit = "d" if k != "d" else "b"
    return ["    %s = 0" % acc, "    for %s, %s in enumerate(reversed(binary)):" % (k, bit),
            "        %s += %s * 2 ** %s" % (acc, bit, k), "    return %s" % acc]


def bn_str(st, v):
    return ["    if not binary:", "        return 0",
            "    return int(''.join(str(d) for d in binary), 2)"]


def bn_pl(st, v):  # place value from the end, the mirror of the bitwise_xor model
    acc, pl, k = nm(st, "acc", "pl", "k")
    return ["    %s = 0" % acc, "    %s = 1" % pl, "    %s = len(binary) - 1" % k,
            "    while %s >= 0:" % k, "        %s = %s + binary[%s] * %s" % (acc, acc, k, pl),
            "        %s = %s * 2" % (pl, pl), "        %s = %s - 1" % (k, k), "    return %s" % acc]


def bin_style(nbf, bnf):
    def style(st, v):
        return {"numeral_binary": [nbf(st, v)], "binary_numeral": [bnf(st, v)]}
    style.__name__ = nbf.__name__ + "+" + bnf.__name__
    return style


BN_STYLES = [(bin_style(nb_div, bn_horner), 12), (bin_style(nb_div, bn_pow), 9),
             (bin_style(nb_div, bn_rev), 4), (bin_style(nb_rec, bn_horner), 3),
             (bin_style(nb_fmt, bn_str), 3), (bin_style(nb_fmt, bn_pow), 2),
             (bin_style(nb_divmod, bn_horner), 2), (bin_style(nb_pow, bn_pl), 2),
             (bin_style(nb_div, bn_pl), 3)]


# bitwise_xor -----------------------------------------------------------------------

def bx_model(st, v):  # place values, the common one
    acc, pl = nm(st, "acc", "pl")
    if "loop" in v:
        head = ["    %s = 0" % acc, "    %s = 1" % pl,
                "    for _ in range(max(a, b).bit_length()):"]
    else:
        head = ["    %s = 0" % acc, "    %s = 1" % pl, "    while a > 0 or b > 0:"]
    if "cond" in v:
        body = ["        %s += %s if a %% 2 != b %% 2 else 0" % (acc, pl)]
    elif knob(st, 0):
        body = ["        if a % 2 != b % 2:", "            %s += %s" % (acc, pl)]
    else:
        body = ["        if a % 2 + b % 2 == 1:", "            %s += %s" % (acc, pl)]
    if "expr" in v:
        body = [x.replace("%s += %s" % (acc, pl), "%s = %s + %s" % (acc, acc, pl)) for x in body]
    step = ["        a //= 2", "        b //= 2", "        %s *= 2" % pl]
    if "reorder" in v:
        step = ["        %s *= 2" % pl, "        b //= 2", "        a //= 2"]
    if knob(st, 1, 0.3):
        step = ["        a = a // 2", "        b = b // 2", "        %s = %s * 2" % (pl, pl)]
    return {"bitwise_exclusive_or": [head + com(8, "bits", st) + body + step
                                     + ["    return %s" % acc]]}


def bx_ops(st, v):  # one line of and/or, many students converge here
    if "expr" in v:
        return {"bitwise_exclusive_or": [["    return (a | b) - (a & b)"]]}
    e = ["(a | b) & ~(a & b)", "(a & ~b) | (~a & b)", "(a | b) - (a & b)", "(a | b) & ~(a & b)"][
        int(st.knobs[0] * 4)]
    return {"bitwise_exclusive_or": [["    return " + e]]}


def bx_str(st, v):  # digit strings of equal length
    sa, sb, acc, k = nm(st, "sa", "sb", "acc", "k")
    if st.knobs[2] < 0.5:
        conv = ["    %s = bin(a)[2:]" % sa, "    %s = bin(b)[2:]" % sb]
    else:
        conv = ["    %s = format(a, 'b')" % sa, "    %s = format(b, 'b')" % sb]
    if st.knobs[3] < 0.5:
        pad = ["    n = max(len(%s), len(%s))" % (sa, sb), "    %s = %s.zfill(n)" % (sa, sa),
               "    %s = %s.zfill(n)" % (sb, sb)]
    else:
        pad = ["    while len(%s) < len(%s):" % (sa, sb), "        %s = '0' + %s" % (sa, sa),
               "    while len(%s) < len(%s):" % (sb, sa), "        %s = '0' + %s" % (sb, sb)]
    seg1 = conv + com(4, "pad", st) + pad
    if "loop" in v:
        seg2 = ["    %s = ''.join('1' if %s[%s] != %s[%s] else '0' for %s in range(len(%s)))"
                % (acc, sa, k, sb, k, k, sa), "    return int(%s, 2)" % acc]
    else:
        seg2 = ["    %s = ''" % acc] + com(4, "bits", st) + ["    for %s in range(len(%s)):" % (k, sa)]
        if "cond" in v:
            seg2 += ["        %s += '1' if %s[%s] != %s[%s] else '0'" % (acc, sa, k, sb, k)]
        else:
            seg2 += ["        if %s[%s] != %s[%s]:" % (sa, k, sb, k), "            %s += '1'" % acc,
                     "        else:", "            %s += '0'" % acc]
        seg2 += ["    return int(%s, 2)" % acc]
    return {"bitwise_exclusive_or": [seg1, seg2], "iface": "bits"}


def bx_zip(st, v):  # lists of digits with a helper and zip
    h, sa, sb, acc = nm(st, "h", "sa", "sb", "acc")
    helper = ["    digits = []", "    while n > 0:", "        digits.insert(0, n % 2)",
              "        n //= 2", "    return digits"]
    seg1 = ["    %s = %s(a)" % (sa, h), "    %s = %s(b)" % (sb, h)] + com(4, "pad", st) + [
        "    while len(%s) < len(%s):" % (sa, sb), "        %s.insert(0, 0)" % sa,
        "    while len(%s) < len(%s):" % (sb, sa), "        %s.insert(0, 0)" % sb]
    seg2 = ["    %s = 0" % acc, "    for x, y in zip(%s, %s):" % (sa, sb),
            "        %s = %s * 2 + (1 if x != y else 0)" % (acc, acc), "    return %s" % acc]
    return {"helpers": {h: ("n", helper)}, "bitwise_exclusive_or": [seg1, seg2], "iface": "bits"}


def bx_rec(st, v):  # recursion
    if "cond" in v:
        return {"bitwise_exclusive_or": [[
            "    return 0 if a == 0 and b == 0 else bitwise_exclusive_or(a // 2, b // 2) * 2 + "
            "(a % 2 + b % 2) % 2"]]}
    return {"bitwise_exclusive_or": [[
        "    if a == 0 and b == 0:", "        return 0",
        "    return 2 * bitwise_exclusive_or(a // 2, b // 2) + (a + b) % 2"]]}


def bx_shift(st, v):  # shifts and &1
    acc, k = nm(st, "acc", "k")
    return {"bitwise_exclusive_or": [[
        "    %s = 0" % acc, "    %s = 0" % k, "    while (a >> %s) > 0 or (b >> %s) > 0:" % (k, k),
        "        if ((a >> %s) & 1) != ((b >> %s) & 1):" % (k, k),
        "            %s |= 1 << %s" % (acc, k), "        %s += 1" % k, "    return %s" % acc]]}


BX_STYLES = [(bx_model, 15), (bx_ops, 8), (bx_str, 8), (bx_zip, 4), (bx_rec, 2), (bx_shift, 3)]


# nim_sum ---------------------------------------------------------------------------

def ns_loop(st, v):
    acc, it = nm(st, "acc", "it")
    if "loop" in v:
        body = ["    %s = 0" % acc, "    k = 0", "    while k < len(board):",
                "        %s ^= board[k]" % acc, "        k += 1"]
    else:
        body = ["    %s = 0" % acc] + com(4, "loop", st) + ["    for %s in board:" % it,
                                                           "        %s ^= %s" % (acc, it)]
        if knob(st, 0, 0.3):
            body[-1] = "        %s = %s ^ %s" % (acc, acc, it)
    if "expr" in v:
        body = [x.replace("%s ^= %s" % (acc, it), "%s = (%s | %s) & ~(%s & %s)" % (acc, acc, it, acc, it))
                .replace("%s ^= board[k]" % acc, "%s = (%s | board[k]) & ~(%s & board[k])"
                         % (acc, acc, acc)) for x in body]
    return body + ["    return %s" % acc]


def ns_index(st, v):
    acc, k = nm(st, "acc", "k")
    return ["    %s = 0" % acc, "    for %s in range(len(board)):" % k,
            "        %s = %s ^ board[%s]" % (acc, acc, k), "    return %s" % acc]


def ns_reduce(st, v):
    if "loop" in v:
        return ns_loop(st, set())
    return ["    from functools import reduce", "    return reduce(lambda x, y: x ^ y, board, 0)"]


def ns_first(st, v):  # starts from board[0]: a bug on the empty board
    acc, k = nm(st, "acc", "k")
    return ["    %s = board[0]" % acc, "    for %s in range(1, len(board)):" % k,
            "        %s ^= board[%s]" % (acc, k), "    return %s" % acc]


def pos_direct(st, v):
    if "cond" in v:
        return (["    return True if nim_sum(board) == 0 else False"],
                ["    return False if nim_sum(board) == 0 else True"])
    if knob(st, 2, 0.25):
        return (["    return not nim_sum(board)"], ["    return bool(nim_sum(board))"])
    if knob(st, 3, 0.3):
        return (["    return nim_sum(board) == 0"], ["    return not is_n_position(board)"])
    return (["    return nim_sum(board) == 0"], ["    return nim_sum(board) != 0"])


def pos_ifelse(st, v):
    if "cond" in v:
        return pos_direct(st, v)
    c = com(4, "zero", st)
    return (c + ["    if nim_sum(board) == 0:", "        return True", "    else:",
                 "        return False"],
            ["    if nim_sum(board) != 0:", "        return True", "    return False"])


def nim_style(sf, pf):
    def style(st, v):
        n, p = pf(st, v)
        return {"nim_sum": [sf(st, v)], "is_n_position": [n], "is_p_position": [p]}
    style.__name__ = sf.__name__ + "+" + pf.__name__
    return style


NS_STYLES = [(nim_style(ns_loop, pos_direct), 20), (nim_style(ns_loop, pos_ifelse), 8),
             (nim_style(ns_index, pos_direct), 5), (nim_style(ns_reduce, pos_direct), 3),
             (nim_style(ns_first, pos_ifelse), 2), (nim_style(ns_index, pos_ifelse), 2)]


# optimal_move ----------------------------------------------------------------------

def om_sum(st, v, kind):
    t, it = nm(st, "t", "it")
    if kind == 0:
        lines = ["    %s = 0" % t, "    for %s in board:" % it, "        %s ^= %s" % (t, it)]
        if "loop" in v:
            lines = ["    %s = 0" % t, "    j = 0", "    while j < len(board):",
                     "        %s ^= board[j]" % t, "        j += 1"]
        if "expr" in v:
            lines = [x.replace("%s ^= %s" % (t, it), "%s = (%s | %s) & ~(%s & %s)"
                               % (t, t, it, t, it)) for x in lines]
        return lines, {}
    if kind == 1:
        hs = st.names["hs"]
        return ["    %s = %s(board)" % (t, hs)], {hs: ("board", [
            "    x = 0", "    for n in board:", "        x = x ^ n", "    return x"])}
    return ["    from functools import reduce", "    %s = reduce(lambda p, q: p ^ q, board)" % t], {}


def om_win(st, v, kind):
    t, ix, tgt = nm(st, "t", "ix", "tgt")
    if kind == 0:  # the model
        lines = ["    if %s != 0:" % t, "        for %s, size in enumerate(board):" % ix,
                 "            if %s ^ size < size:" % t,
                 "                return (%s + 1, size - (%s ^ size))" % (ix, t)]
        if "cond" in v:
            lines = ["    if %s != 0:" % t, "        for %s, size in enumerate(board):" % ix,
                     "            move = (%s + 1, size - (%s ^ size)) if %s ^ size < size else None"
                     % (ix, t, t), "            if move:", "                return move"]
        if "loop" in v:
            lines = ["    if %s != 0:" % t, "        %s = 0" % ix, "        while %s < len(board):" % ix,
                     "            if %s ^ board[%s] < board[%s]:" % (t, ix, ix),
                     "                return (%s + 1, board[%s] - (%s ^ board[%s]))" % (ix, ix, t, ix),
                     "            %s += 1" % ix]
        return lines
    if kind == 1:  # target size in a variable, range loop
        lines = ["    if %s > 0:" % t, "        for %s in range(len(board)):" % ix,
                 "            %s = board[%s] ^ %s" % (tgt, ix, t),
                 "            if %s < board[%s]:" % (tgt, ix),
                 "                return (%s + 1, board[%s] - %s)" % (ix, ix, tgt)]
        if "reorder" in v:
            lines = ["    for %s in range(len(board)):" % ix, "        %s = board[%s] ^ %s" % (tgt, ix, t),
                     "        if %s != 0 and %s < board[%s]:" % (t, tgt, ix),
                     "            return (%s + 1, board[%s] - %s)" % (ix, ix, tgt)]
        return lines
    # kind 2: brute force, try every move (beginners)
    return ["    if %s != 0:" % t, "        for %s in range(len(board)):" % ix,
            "            for take in range(1, board[%s] + 1):" % ix,
            "                after = 0", "                for j in range(len(board)):",
            "                    if j == %s:" % ix,
            "                        after ^= board[j] - take", "                    else:",
            "                        after ^= board[j]",
            "                if after == 0:", "                    return (%s + 1, take)" % ix]


def om_rand(st, v, kind):
    opts, ix = nm(st, "opts", "ix")
    if kind == 0:
        if "loop" in v:
            return ["    %s = []" % opts, "    for %s in range(len(board)):" % ix,
                    "        if board[%s] > 0:" % ix, "            %s.append(%s)" % (opts, ix),
                    "    %s = random.choice(%s)" % (ix, opts),
                    "    return (%s + 1, random.randint(1, board[%s]))" % (ix, ix)]
        return ["    %s = [i for i in range(len(board)) if board[i] > 0]" % opts,
                "    %s = random.choice(%s)" % (ix, opts),
                "    return (%s + 1, random.randint(1, board[%s]))" % (ix, ix)]
    if kind == 1:
        return ["    while True:", "        %s = random.randint(0, len(board) - 1)" % ix,
                "        if board[%s] > 0:" % ix,
                "            return (%s + 1, random.randint(1, board[%s]))" % (ix, ix)]
    return ["    for %s in range(len(board)):" % ix, "        if board[%s] > 0:" % ix,
            "            return (%s + 1, 1)" % ix]


def om_style(a, b, c):
    def style(st, v):
        s, helpers = om_sum(st, v, a)
        return {"helpers": helpers, "optimal_move": [
            s, com(4, "win", st) + om_win(st, v, b), com(4, "rand", st) + om_rand(st, v, c)],
            "iface": "om"}
    style.__name__ = "om%d%d%d" % (a, b, c)
    return style


OM_STYLES = [(om_style(0, 0, 0), 12), (om_style(0, 1, 0), 6), (om_style(0, 0, 1), 5),
             (om_style(1, 1, 1), 4), (om_style(1, 0, 0), 4), (om_style(0, 2, 2), 3),
             (om_style(2, 0, 0), 2), (om_style(0, 1, 2), 3), (om_style(0, 0, 2), 2)]


EXERCISES = {"make_move": MM_STYLES, "bin_num": BN_STYLES, "bitwise_xor": BX_STYLES,
             "nim_sum": NS_STYLES, "optimal_move": OM_STYLES}


# ------------------------------------------------------------------ rendering

def render(ex, st, parts, order=None, dead=False, recomment=None, spacing=None):
    head, docs, block = starter(ex)
    funcs = [f for f in parts if f not in ("helpers", "iface")]
    helpers = parts.get("helpers") or {}
    out = [head.rstrip("\n") + "\n"]
    defs = []
    for name, (params, body) in helpers.items():
        defs.append((name, "def %s(%s):\n" % (name, params) + "\n".join(body) + "\n"))
    for f in funcs:
        params, doc = docs[f]
        text = "def %s(%s):\n" % (f, params)
        if st.keep_doc:
            text += doc
        if st.keep_here:
            text += "    # Your code here.\n"
        body = [line for seg in parts[f] for line in seg]
        if dead:
            body = add_dead(body, f)
        text += "\n".join(body) + "\n"
        defs.append((f, text))
    if order:
        defs = [defs[i] for i in order]
    sep = "\n\n\n" if spacing is None else spacing
    out.append(sep.join(d for _, d in defs))
    text = "\n\n".join(out) + "\n\n" + block
    if recomment:
        text = recomment(text)
    return text


DEBUG_WORDS = ["debug", "aqui", "DEBUG", "test", "chegou", "ok"]


def add_dead(body, f):
    """Dead code and debug prints inside a function body."""
    out = []
    first_var = None
    for line in body:
        out.append(line)
        m = re.match(r"^(\s+)(\w+) = ", line)
        if m and first_var is None and not line.strip().startswith("return"):
            first_var = (m.group(1), m.group(2))
            out.append("%sprint(\"%s\", %s)" % (m.group(1), R.choice(DEBUG_WORDS), m.group(2)))
    out.insert(0, "    %s = %s" % (R.choice(["contador", "count", "aux", "tmp", "flag", "cont"]),
                                    R.choice(["0", "False", "None", "1"])))
    out.insert(1, "    %s = []" % R.choice(["unused", "lista_aux", "temp", "debug_list", "l"]))
    if first_var is None:
        out.insert(2, "    # print(\"%s\")" % f)
    ret = [i for i, l in enumerate(out) if l.strip().startswith("return")]
    if ret:
        i = ret[-1]
        ind = re.match(r"^(\s*)", out[i]).group(1)
        out.insert(i, ind + "if False:")
        out.insert(i + 1, ind + "    print(\"never\")")
    return out


def strip_comments(text):
    lines = [l for l in text.split("\n") if not l.strip().startswith("#") or l.startswith("# -*-")
             or l.startswith("# Reads one")]
    return "\n".join(lines)


def restyle_whitespace(text):
    """Two-space indentation, spaces around operators trimmed, blank lines moved."""
    lines = text.split("\n")
    end = lines.index('if __name__ == "__main__":')
    out = []
    for line in lines[:end]:
        ind = len(line) - len(line.lstrip(" "))
        body = line.lstrip(" ")
        if not body.startswith(("#", '"')):
            body = re.sub(r" (==|<=|>=|\+|-|\*|//|%|\^=|\+=|-=) ", r"\1", body)
        out.append(" " * (ind // 2) + body)
    return "\n".join(out).replace("\n\n\n", "\n\n") + "\n" + "\n".join(lines[end:])


def add_comments(text, lang):
    notes = {"en": ["# here we do the work", "# result", "# done"],
             "pt": ["# aqui faz o calculo", "# resultado", "# fim"],
             "es": ["# aqui se calcula", "# resultado", "# listo"]}[lang]
    out = []
    for line in text.split("\n"):
        m = re.match(r"^(\s+)(return|for|while|if) ", line)
        if m and not line.lstrip().startswith("if __name__") and len(m.group(1)) >= 4 and \
                len(m.group(1)) < 8 and R.random() < 0.7:
            word = {"return": notes[1], "for": notes[0], "while": notes[0], "if": notes[0]}[m.group(2)]
            out.append(m.group(1) + word)
        out.append(line)
    return "\n".join(out)


def comments_disguise(lang):
    def f(text):
        return restyle_whitespace(add_comments(strip_comments(text), lang))
    return f


# ------------------------------------------------------------------ the class

def build(ex, roster, styles, rng, forced=()):
    """Write each independent student's solution of ex (the forced styles at least once each)."""
    files = {}
    who = {}
    weights = [w for _, w in styles]
    by_name = dict((f.__name__, f) for f, _ in styles)
    forced = list(forced)
    for s in roster:
        st = Student(rng)
        style = rng.choices([f for f, _ in styles], weights)[0]
        if forced and not any(w[1].__name__ == forced[0] for w in who.values()) and \
                rng.random() < 0.5:
            style = by_name[forced.pop(0)]
        who[s] = (st, style)
        files[s] = render(ex, st, style(st, set()))
    return files, who


def paraphrase(parts):
    """Line by line paraphrase: each line said another way, same meaning and order."""
    subs = [(r"(\w+) \+= (.+)$", r"\1 = \1 + \2"), (r"(\w+) -= (.+)$", r"\1 = \1 - \2"),
            (r"(\w+) \*= 2$", r"\1 = \1 + \1"), (r"(\w+) //= 2$", r"\1 = int(\1 / 2)"),
            (r"(\w+) = (\w+) // 2$", r"\1 = \2 >> 1"), (r"(\w+) % 2", r"(\1 & 1)"),
            (r"!= 0:$", ":"), (r"return (\w+)\(board\) != 0$", r"return not \1(board) == 0"),
            (r"^(\s+)if (.+) == 0:$", r"\1if not (\2):"), (r"\.append\((.+)\)$", r" += [\1]"),
            (r"len\(board\)", "len(board[:])"), (r"range\(len\((\w+)\)\)", r"range(0, len(\1))")]
    out = {}
    for f, segs in parts.items():
        if f in ("helpers", "iface"):
            out[f] = segs
            continue
        new = []
        for seg in segs:
            ns = []
            for line in seg:
                for pat, rep in subs:
                    line2 = re.sub(pat, rep, line)
                    if line2 != line:
                        line = line2
                        break
                ns.append(line)
            new.append(ns)
        out[f] = new
    return out


def mix(parts, other, st):
    """Partial copy: the second half of the code from the other source."""
    out = dict(parts)
    funcs = [f for f in parts if f not in ("helpers", "iface")]
    if len(funcs) > 1:
        for f in funcs[len(funcs) // 2:]:
            out[f] = other[f]
        return out
    f = funcs[0]
    segs = parts[f]
    osegs = other[f]
    out[f] = segs[:1] + osegs[1:]
    hp = dict(parts.get("helpers") or {})
    hp.update(other.get("helpers") or {})
    out["helpers"] = hp
    return out


# Copies per exercise: (disguises, needs) where needs picks a source style.
PLANS = {
    "make_move": [
        (["rename"], None), (["reorder"], "mm_a"), (["comments"], None), (["dead"], None),
        (["loop"], "mm_d"), (["expr"], "mm_a"), (["cond"], "mm_c"), (["para"], "mm_a"),
        (["partial"], ("mm_d", "mm_d")), (["rename", "comments"], None),
        (["rename", "loop", "dead"], "mm_f"), (["rename", "cond", "expr"], "mm_a"),
        (["reorder", "comments", "rename"], "mm_b"), (["partial", "rename"], ("mm_c", "mm_c"))],
    "bin_num": [
        (["rename"], None), (["reorder"], None), (["comments"], None), (["dead"], None),
        (["loop"], "nb_fmt+bn_str"), (["expr"], "nb_div+bn_pow"), (["cond"], "nb_rec+bn_horner"),
        (["para"], "nb_div+bn_pl"), (["partial"], None), (["rename", "reorder", "comments"], None),
        (["loop", "rename"], "nb_div+bn_horner"), (["dead", "expr", "rename"], "nb_div+bn_pow"),
        (["partial", "comments"], None)],
    "bitwise_xor": [
        (["rename"], "bx_model"), (["reorder"], "bx_model"), (["comments"], None), (["dead"], None),
        (["loop"], "bx_str"), (["expr"], "bx_model"), (["cond"], "bx_str"), (["para"], "bx_model"),
        (["partial"], ("bx_str", "bx_str")), (["rename", "comments"], "bx_zip"),
        (["rename", "loop", "cond"], "bx_model"), (["dead", "rename"], "bx_str"),
        (["expr", "rename"], "bx_ops"), (["cond", "comments"], "bx_rec")],
    "nim_sum": [
        (["rename"], "ns_loop+pos_direct"), (["reorder"], None), (["comments"], None),
        (["dead"], None), (["loop"], "ns_loop+pos_direct"), (["expr"], "ns_loop+pos_direct"),
        (["cond"], "ns_loop+pos_ifelse"), (["para"], "ns_index+pos_direct"), (["partial"], None),
        (["rename", "reorder", "comments"], "ns_loop+pos_ifelse"),
        (["loop", "expr"], "ns_loop+pos_ifelse"), (["dead", "rename"], None),
        (["rename", "cond"], "ns_loop+pos_ifelse")],
    "optimal_move": [
        (["rename"], None), (["reorder"], "om010"), (["comments"], None), (["dead"], None),
        (["loop"], "om000"), (["expr"], "om000"), (["cond"], "om000"), (["para"], "om010"),
        (["partial"], (None, None)), (["rename", "comments"], "om111"),
        (["rename", "loop", "dead"], "om000"), (["expr", "rename", "comments"], "om001"),
        (["partial", "rename"], (None, None))],
}


def main():
    cls = os.path.join(HERE, "class")
    if os.path.isdir(cls):
        shutil.rmtree(cls)
    labels = {"exercises": {}}
    for ex, styles in EXERCISES.items():
        rng = random.Random("nimlab-44-" + ex)
        roster = list(STUDENTS)
        skip = rng.sample(roster, 2)  # two students did not hand this one in
        roster = [s for s in roster if s not in skip]
        plans = PLANS[ex]
        copiers = rng.sample(roster, len(plans))
        copies = [{"copy": c, "disguises": ds, "_need": need} for c, (ds, need) in zip(copiers, plans)]
        # Draw independent solutions first, then pick sources with the needed style.
        indep = [s for s in roster if s not in copiers]
        needed = sorted(set(n for _, need in plans
                            for n in (need if isinstance(need, tuple) else (need,)) if n))
        files, who = build(ex, indep, styles, rng, forced=needed)
        used = set()
        for c in copies:
            need = c.pop("_need")
            needs = need if isinstance(need, tuple) else (need,)
            if "partial" in c["disguises"] and not isinstance(need, tuple):
                needs = (None, None)
            srcs = []
            for n in needs:
                cand = [s for s in indep if s not in srcs and (n is None or who[s][1].__name__ == n)]
                if "partial" in c["disguises"] and srcs:
                    first = who[srcs[0]][1]
                    iface = first(who[srcs[0]][0], set()).get("iface")
                    cand = [s for s in cand if who[s][1](who[s][0], set()).get("iface") == iface]
                    other = [s for s in cand if who[s][1] is not first]
                    cand = other if (other and n is None) else cand
                fresh = [s for s in cand if s not in used] or cand
                if not fresh:
                    raise SystemExit("%s: no source of style %s for %s" % (ex, n, c["disguises"]))
                srcs.append(rng.choice(sorted(fresh)))
            used.update(srcs)
            c["source"] = srcs
        # The copies, written after their sources.
        for c in copies:
            f2, w2 = build_copy(ex, c, who, rng)
            files[c["copy"]] = f2
        for s, text in files.items():
            d = os.path.join(cls, s)
            if not os.path.isdir(d):
                os.makedirs(d)
            with open(os.path.join(d, ex + ".py"), "w") as f:
                f.write(text)
        labels["exercises"][ex] = {
            "students": sorted(files),
            "copies": [{"copy": c["copy"], "source": c["source"], "disguises": c["disguises"],
                        "source_style": c["style"]} for c in copies]}
    with open(os.path.join(HERE, "labels.json"), "w") as f:
        json.dump(labels, f, indent=1, sort_keys=True)
        f.write("\n")


def build_copy(ex, c, who, rng):
    global R
    R = rng
    src = c["source"]
    st0, style = who[src[0]]
    st = st0
    ds = c["disguises"]
    if "rename" in ds:
        st = Student(rng)
        st.names = pick_names(rng, avoid=st0.names)
        st.knobs, st.lang, st.comments = st0.knobs, st0.lang, st0.comments
        st.keep_doc, st.keep_here = st0.keep_doc, st0.keep_here
    v = set(d for d in ds if d in ("loop", "expr", "cond", "para", "reorder"))
    parts = style(st, v)
    if "para" in ds:
        parts = paraphrase(parts)
    if "partial" in ds:
        st1, style1 = who[src[1]]
        if parts.get("iface"):
            # The copier adapts the second source to the first one's names.
            st2 = Student(rng)
            st2.__dict__.update(st1.__dict__)
            st2.names = st.names
            st1 = st2
        other = style1(st1, set())
        parts = mix(parts, other, st)
    funcs = list(parts.get("helpers") or {}) + [f for f in parts if f not in ("helpers", "iface")]
    order = list(range(len(funcs)))[::-1] if "reorder" in ds and len(funcs) > 1 else None
    recomment = comments_disguise(rng.choice(LANGS)) if "comments" in ds else None
    c["style"] = style.__name__
    return render(ex, st, parts, order=order, dead="dead" in ds, recomment=recomment), None


if __name__ == "__main__":
    main()
