#!/usr/bin/env python3
"""cpsolve on tests/corpus/model/mzn-*.puz beside Gecode on the same .mzn and .dzn.

usage: bench/mzn-corpus/times.py [--runs 5] [--bin target/release/cpsolve] [MODEL.puz ...]

Runs each model's cpsolve and Gecode one after the other, --runs times, interleaved, and
prints a Markdown table of medians: cpsolve's whole process (wall) and its search time
(--stats time_ms); Gecode's whole `minizinc` run (wall: flattening included) and its
solveTime (`minizinc -s`). Gecode is `org.gecode.gecodefix` (bench/peers/gecodefix.sh);
set MZN_SOLVER_PATH as that script says, or GECODE=org.gecode.gecode. The load average
before and after is printed too: compare within one table only.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check  # noqa: E402


def cpsolve_once(binary, path):
    start = time.perf_counter()
    run = subprocess.run([binary, "--format", "json", "--stats", "--timeout", "60", path], capture_output=True, text=True)
    wall = time.perf_counter() - start
    try:
        out = json.loads(run.stdout.splitlines()[0])
        return wall, out.get("stats", {}).get("time_ms", float("nan")) / 1000, out.get("status")
    except (IndexError, json.JSONDecodeError):
        return wall, float("nan"), "error"


def gecode_once(folder, mzn, dzn):
    cmd = ["minizinc", "--solver", os.environ.get("GECODE", "org.gecode.gecodefix"), "-s",
           os.path.join(check.MZN, folder, mzn)] + ([os.path.join(check.MZN, folder, dzn)] if dzn else [])
    start = time.perf_counter()
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    wall = time.perf_counter() - start
    m = re.search(r"solveTime=([0-9.e-]+)", run.stdout)
    return wall, float(m.group(1)) if m else float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(check.ROOT, "target", "release", "cpsolve"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("models", nargs="*")
    args = ap.parse_args()
    models = args.models or sorted(
        os.path.join(check.MODELS, f) for f in os.listdir(check.MODELS) if f.startswith("mzn-") and f.endswith(".puz"))
    print(f"measured {time.strftime('%Y-%m-%d %H:%M')}, load before {os.getloadavg()[0]:.2f} "
          f"{os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}, medians of {args.runs} interleaved runs\n")
    print("| model | cpsolve wall | cpsolve search | Gecode wall (minizinc) | Gecode solveTime | cpsolve status |")
    print("|---|---:|---:|---:|---:|---|")
    for path in models:
        folder, mzn, dzn = check.source_of(path)
        cw, cs, gw, gs, status = [], [], [], [], "?"
        for _ in range(args.runs):
            w, s, status = cpsolve_once(args.bin, path)
            cw.append(w)
            cs.append(s)
            w, s = gecode_once(folder, mzn, dzn)
            gw.append(w)
            gs.append(s)
        med = statistics.median
        print(f"| {os.path.basename(path)[4:-4]} | {med(cw) * 1000:.1f} ms | {med(cs) * 1000:.1f} ms | "
              f"{med(gw) * 1000:.0f} ms | {med(gs) * 1000:.1f} ms | {status} |", flush=True)
    la = os.getloadavg()
    print(f"\nload after {la[0]:.2f} {la[1]:.2f} {la[2]:.2f}")


if __name__ == "__main__":
    main()
