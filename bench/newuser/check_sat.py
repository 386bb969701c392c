#!/usr/bin/env python3
"""Checks cpsolve's one solution of each `sat` model of expected.tsv with Gecode: the
solution's values (of fixed.puz) are added to the original model.mzn (and data.dzn) as
constraints, and Gecode must find that model satisfiable. Needs minizinc with Gecode.
usage: check_sat.py BIN"""
import json, os, re, subprocess, sys, tempfile
from run import read_tsv, HERE

binary = sys.argv[1]
bad = 0
for r in read_tsv(f"{HERE}/expected.tsv"):
    if r["kind"] != "sat":
        continue
    d = f"{HERE}/models/{r['model']}"
    src = f"{d}/fixed.puz" if os.path.exists(f"{d}/fixed.puz") else f"{d}/asis.puz"
    p = subprocess.run([binary, "--first", "--format", "json", "--timeout", "60", src],
                       capture_output=True, text=True)
    sol = json.loads(p.stdout)["solutions"][0]
    lines = []
    for k, v in sol.items():
        if isinstance(v, list):
            v = "{" + ", ".join(map(str, v)) + "}"
        elif isinstance(v, bool):
            v = str(v).lower()
        lines.append(f"constraint {k} = {v};")
    with tempfile.NamedTemporaryFile("w", suffix=".mzn", delete=False) as f:
        f.write(open(f"{d}/model.mzn").read() + "\n" + "\n".join(lines) + "\n")
    cmd = ["minizinc", "--solver", "gecode", "--time-limit", "60000", f.name]
    if os.path.exists(f"{d}/data.dzn"):
        cmd.append(f"{d}/data.dzn")
    g = subprocess.run(cmd, capture_output=True, text=True)
    ok = "----------" in g.stdout
    bad += not ok
    print(f"{r['model']}: {len(lines)} values fixed: {'a solution of the original' if ok else 'NOT a solution: ' + (g.stdout + g.stderr)[-300:]}")
    os.unlink(f.name)
sys.exit(1 if bad else 0)
