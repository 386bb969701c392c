#!/usr/bin/env python3
"""Same trees, node for node: runs two builds of cpsolve on the same inputs and compares
their search statistics and answers.

A refactoring of the search kernel must not change which tree is explored. This runs every
FlatZinc file given (with the default search, free search, learning off, and an enumeration
of at most 200 solutions) and every `.puz` model of the corpus (as written, and with
learning forced on), with each build, and reports every run whose answer or whose nodes,
failures or propagations differ. Runs that reach the time limit in either build are listed
apart (where a time limit cuts a search is not deterministic).

    bench/trees.py --old /tmp/base --new target/release --fzn DIR [--puz tests/corpus]
"""
import argparse, glob, json, os, re, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

STAT = re.compile(r"^%%%mzn-stat: (nodes|failures|propagations|solutions)=(\d+)", re.M)


def fzn_runs(fzn_dir, timeout):
    for f in sorted(glob.glob(os.path.join(fzn_dir, "*.fzn"))):
        for flags in ([], ["-f"], ["--learning", "no"], ["-a", "-n", "200"]):
            yield ("fzn-cpsolve", ["-s", "-t", str(timeout * 1000)] + flags + [f])


def puz_runs(puz_dir, timeout):
    for f in sorted(glob.glob(os.path.join(puz_dir, "**", "*.puz"), recursive=True)):
        if "/errors/" in f:
            continue
        for flags in ([], ["--learning", "yes"]):
            yield ("cpsolve", ["--stats", "--format", "json", "--timeout", str(timeout)] + flags + [f])


def run(build, binary, args):
    r = subprocess.run([os.path.join(build, binary)] + args, capture_output=True, text=True, timeout=600)
    out = r.stdout
    if binary == "fzn-cpsolve":
        stats = dict(STAT.findall(out))
        answer = "\n".join(l for l in out.splitlines() if not l.startswith("%"))
        # A search cut by the limit ends in UNKNOWN, or with no status line at all.
        limited = "=====UNKNOWN" in out or ("=====" not in out and "UNSAT" not in out)
    else:
        stats, answer, limited = {}, [], False
        for line in out.splitlines():
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            s = obj.pop("stats", {}) or {}
            stats.update({k: s[k] for k in ("nodes", "failures", "propagations") if k in s})
            limited = limited or obj.get("status") == "limit"
            answer.append(json.dumps(obj, sort_keys=True))
        answer = "\n".join(answer)
    return r.returncode, stats, answer, limited


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--old", required=True)
    p.add_argument("--new", required=True)
    p.add_argument("--fzn")
    p.add_argument("--puz")
    p.add_argument("--timeout", type=int, default=8)
    p.add_argument("--jobs", type=int, default=2)
    a = p.parse_args()
    runs = []
    if a.fzn:
        runs += list(fzn_runs(a.fzn, a.timeout))
    if a.puz:
        runs += list(puz_runs(a.puz, a.timeout))

    def both(r):
        return r, run(a.old, *r), run(a.new, *r)

    same = differ = limited = 0
    with ThreadPoolExecutor(a.jobs) as pool:
        for (binary, args), old, new in pool.map(both, runs):
            name = binary + " " + " ".join(args)
            if old[3] or new[3]:
                limited += 1
                print("limit   ", name)
            elif old[:3] == new[:3]:
                same += 1
            else:
                differ += 1
                print("DIFFERS ", name, "\n   old:", old[0], old[1], "\n   new:", new[0], new[1])
                if old[2] != new[2]:
                    print("   answers differ")
            sys.stdout.flush()
    print(f"same {same}, differ {differ}, limit struck {limited}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
