#!/usr/bin/env python3
"""Gecode's answers on the MiniZinc twins of the language probes (tests/language/NAME.mzn).

    python3 tests/language/gecode.py            # print NAME<TAB>MODE<TAB>VALUE for every twin
    python3 tests/language/gecode.py NAME ...   # only these
    python3 tests/language/gecode.py --check    # compare with expected.tsv; exit 1 on a difference

A twin with `solve satisfy` is run with `--all-solutions` and its solutions are counted (MODE
`count`, or `unsat` when there is none); one with `solve minimize` / `solve maximize` gives the
proven optimum (`optimum`). The Rust test tests/language.rs does the same when `minizinc` is on
the PATH; this script is how the rows of expected.tsv are made (with brute.py, which must agree).
"""

import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def gecode(name):
    path = os.path.join(HERE, name + ".mzn")
    source = open(path).read()
    optimise = re.search(r"\bsolve\b[^;]*\b(minimize|maximize)\b", source) is not None
    args = ["minizinc", "--solver", "gecode", "--time-limit", "120000", "--all-solutions"]
    if optimise:
        args.append("--output-objective")
    run = subprocess.run(args + [path], capture_output=True, text=True, cwd=HERE)
    out = run.stdout
    if "=====UNSATISFIABLE=====" in out:
        return ("unsat", "-")
    if run.returncode != 0 or "==========" not in out:
        return ("error", (run.stderr.strip().splitlines() or ["no complete answer"])[-1])
    if optimise:
        objectives = re.findall(r"^_objective = (-?\d+);$", out, re.M)
        return ("optimum", objectives[-1])
    return ("count", sum(1 for line in out.splitlines() if line == "----------"))


def main(argv):
    check = "--check" in argv
    names = [a for a in argv if not a.startswith("--")] or sorted(
        f[:-4] for f in os.listdir(HERE) if f.endswith(".mzn")
    )
    expected = {}
    if check:
        for line in open(os.path.join(HERE, "expected.tsv")):
            parts = line.rstrip("\n").split("\t")
            if len(parts) == 3 and parts[0] != "name" and not parts[0].startswith("#"):
                expected[parts[0]] = (parts[1], parts[2])
    bad = 0
    for name in names:
        mode, value = gecode(name)
        if check:
            if expected.get(name) != (mode, str(value)):
                print(f"{name}: expected.tsv says {expected.get(name)}, Gecode {mode} {value}")
                bad += 1
        else:
            print(f"{name}\t{mode}\t{value}", flush=True)
    if check:
        print(f"gecode.py: {len(names)} twins checked, {bad} differences")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
