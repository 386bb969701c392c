#!/usr/bin/env python3
"""Writes the gallery's nonogram and its two twins from one picture:

  tests/corpus/model/nonogram.puz         a regular constraint per line, the automaton of its
                                          clue built here
  bench/mzn/nonogram.mzn                  MiniZinc, without regular: runs with start variables
  bench/models/nonogram-decomposed.puz    the same statement without regular, in .puz

The picture is a random 15x15 one (density 0.6, seed 1) whose clues allow one solution
(cpsolve and MiniZinc + Gecode both count 1). Run from anywhere; standard library only.
"""
import os
import random

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
random.seed(1)
N = 15
PIC = ["".join("#" if random.random() < 0.6 else "." for _ in range(N)) for _ in range(N)]


def clue(line):
    out, run = [], 0
    for c in line + ".":
        if c == "#":
            run += 1
        elif run:
            out.append(run)
            run = 0
    return out


ROWS = [clue(r) for r in PIC]
COLS = [clue("".join(r[j] for r in PIC)) for j in range(N)]


def automaton(blocks):
    """(states, transitions [blank, filled] per state, start, accepting): blanks, then a run
    of exactly each block's length, at least one blank between runs, blanks at the end."""
    if not blocks:
        return 1, [[1, 0]], 1, [1]
    trans, q, wait, last = {(1, 1): 1}, 1, 1, 1
    for length in blocks:
        prev = wait
        for _ in range(length):
            q += 1
            trans[(prev, 2)] = q
            prev = q
        last = prev
        q += 1
        trans[(prev, 1)] = q
        trans[(q, 1)] = q
        wait = q
    return q, [[trans.get((s, a), 0) for a in (1, 2)] for s in range(1, q + 1)], 1, [last, wait]


def puz():
    lines = ["# A nonogram (%dx%d): each row and column shows the lengths of its runs of filled cells, in" % (N, N),
             "# order. Each line is a regular constraint: the automaton of its clue (blanks, then a run",
             "# of exactly that many filled cells, at least one blank, the next run, ...), read over the",
             "# cells as symbols 1 = blank and 2 = filled. Written by bench/models/nonogram.py from a",
             "# random picture; the MiniZinc twin (bench/mzn/nonogram.mzn) states the clues without",
             "# regular, and MiniZinc + Gecode find the same unique picture.",
             "var x[1..%d, 1..%d] in 0..1" % (N, N)]
    for kind, clues in (("row", ROWS), ("column", COLS)):
        for k, c in enumerate(clues, 1):
            q, table, q0, accepting = automaton(c)
            cells = "[x[%d, j] + 1 | j in 1..%d]" % (k, N) if kind == "row" else "[x[i, %d] + 1 | i in 1..%d]" % (k, N)
            rows = "[" + ", ".join("[%d, %d]" % tuple(r) for r in table) + "]"
            lines.append("# %s %d: %s" % (kind, k, " ".join(map(str, c)) or "empty"))
            lines.append("regular(%s, %d, 2, %s, %d, {%s})" % (cells, q, rows, q0, ", ".join(map(str, accepting))))
    lines.append("solve all")
    return "\n".join(lines) + "\n"


def runs(cell, blocks, tag, mzn):
    """A line without regular: run starts in order, a cell filled exactly when a run covers it."""
    k = len(blocks)
    if k == 0:
        return ["constraint forall(j in 1..%d)(%s = 0);" % (N, cell)] if mzn else \
               ["forall j in 1..%d: %s == 0" % (N, cell)]
    if mzn:
        out = ["array[1..%d] of var 1..%d: s_%s;" % (k, N, tag),
               "constraint s_%s[%d] + %d <= %d;" % (tag, k, blocks[-1] - 1, N)]
        out += ["constraint s_%s[%d] >= s_%s[%d] + %d;" % (tag, t + 1, tag, t, blocks[t - 1] + 1) for t in range(1, k)]
        cover = " \\/ ".join("(s_%s[%d] <= j /\\ j < s_%s[%d] + %d)" % (tag, t + 1, tag, t + 1, b) for t, b in enumerate(blocks))
        out.append("constraint forall(j in 1..%d)(%s = 1 <-> %s);" % (N, cell, cover))
        return out
    out = ["var s_%s[1..%d] in 1..%d" % (tag, k, N), "s_%s[%d] + %d <= %d" % (tag, k, blocks[-1] - 1, N)]
    out += ["s_%s[%d] >= s_%s[%d] + %d" % (tag, t + 1, tag, t, blocks[t - 1] + 1) for t in range(1, k)]
    cover = " or ".join("(s_%s[%d] <= j and j < s_%s[%d] + %d)" % (tag, t + 1, tag, t + 1, b) for t, b in enumerate(blocks))
    out.append("forall j in 1..%d: %s == 1 <-> %s" % (N, cell, cover))
    return out


def twin(mzn):
    if mzn:
        lines = ["% The gallery's nonogram.puz in MiniZinc, without regular: each run of a line has a",
                 "% start, runs keep their order with a blank between them, and a cell is filled exactly",
                 "% when some run covers it (an independent statement of the same clues).",
                 "array[1..%d, 1..%d] of var 0..1: x;" % (N, N)]
    else:
        lines = ["# nonogram.puz with regular decomposed, for the benchmark (bench/model.sh): each run of a",
                 "# line has a start, runs keep their order with a blank between them, and a cell is",
                 "# filled exactly when some run covers it.",
                 "var x[1..%d, 1..%d] in 0..1" % (N, N)]
    for i, r in enumerate(ROWS, 1):
        lines += runs("x[%d, j]" % i, r, "r%d" % i, mzn)
    for j, c in enumerate(COLS, 1):
        lines += runs("x[j, %d]" % j, c, "c%d" % j, mzn)
    lines.append("solve satisfy;" if mzn else "solve all")
    return "\n".join(lines) + "\n"


for path, text in (("tests/corpus/model/nonogram.puz", puz()), ("bench/mzn/nonogram.mzn", twin(True)),
                   ("bench/models/nonogram-decomposed.puz", twin(False))):
    with open(os.path.join(ROOT, path), "w") as f:
        f.write(text)
