#!/usr/bin/env python3
"""The other road for a new user: the 55 original files given to cpsolve as MiniZinc
(`cpsolve model.mzn data.dzn`, which flattens with `minizinc`), each answer checked against
expected.tsv as bench/newuser.sh checks the .puz files. Needs minizinc.
usage: mzn_path.py BIN   (prints one tab-separated line per model, then the tally)"""
import json, os, subprocess, sys, time
from run import read_tsv, HERE

binary = sys.argv[1]
agree = 0; rows = []
for r in read_tsv(f"{HERE}/expected.tsv"):
    d = f"{HERE}/models/{r['model']}"
    args = [f"{d}/model.mzn"] + ([f"{d}/data.dzn"] if os.path.exists(f"{d}/data.dzn") else [])
    flags = {"count": ["--count"], "sat": ["--first"], "optimum": []}[r["kind"]]
    t0 = time.time()
    try:
        p = subprocess.run([binary, "--format", "json", "--timeout", "60"] + flags + args, capture_output=True, text=True, timeout=90)
        o = json.loads(p.stdout.strip().splitlines()[-1])
    except Exception as e:
        o = {"status": "crash", "err": str(e)[:100]}
    st = o.get("status")
    if st == "solved":
        ans = str(o.get("count")) if r["kind"] == "count" else ("1+" if r["kind"] == "sat" else str(o.get("objective")))
    elif st == "unsatisfiable":
        ans = "0"
    else:
        ans = "-"
    v = "agree" if ans == r["answer"] else ("DISAGREE" if ans != "-" else st)
    agree += v == "agree"
    err = o.get("errors", [{}])[0].get("message", "")[:100] if st == "error" else o.get("stopped", "")
    print(f"{r['model']}\t{r['kind']} {r['answer']}\t{st}\t{ans}\t{v}\t{time.time()-t0:.1f}s\t{err}", flush=True)
print("agree", agree)
