"""The user's commands, timed as the user runs them: `cpsolve model.mzn data.dzn` against
`minizinc --solver org.gecode.gecodefix model.mzn data.dzn`, wall time of the whole command,
no floor, on the instances of an expected.json (the public MiniZinc set's format). Prints one line
per instance, then the solved counts and the geometric mean of the time ratio cpsolve/Gecode
over the instances both solved. A run whose status contradicts expected.json is WRONG (exit 1).
Driven by bench/user-commands.sh."""

import argparse
import json
import math
import os
import subprocess
import sys
import time


def timed(cmd, env, timeout):
    start = time.perf_counter()
    try:
        p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=timeout + 10)
        return time.perf_counter() - start, p.returncode, p.stdout.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return time.perf_counter() - start, None, ""


def status(out, method, code):
    """complete / solution / unsat / none, from MiniZinc's text output."""
    if "=====UNSATISFIABLE=====" in out:
        return "unsat"
    if "==========" in out:
        return "complete"
    if "----------" in out:
        return "complete" if method == "satisfy" and code == 0 else "solution"
    return "none"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--instances", required=True, help="a folder holding expected.json")
    ap.add_argument("--cpsolve", required=True)
    ap.add_argument("--solver-path", required=True, help="MZN_SOLVER_PATH holding gecodefix")
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    entries = json.load(open(os.path.join(args.instances, "expected.json")))
    if args.only:
        keep = args.only.split(",")
        entries = [e for e in entries if e["folder"] in keep]
    env = dict(os.environ, MZN_SOLVER_PATH=args.solver_path)
    print("# load average at start: %s" % open("/proc/loadavg").read().split()[:3])
    print("%-22s %-26s %9s %9s %7s  %s" % ("folder", "data", "cpsolve", "gecode", "ratio", "status c/g"))
    ratios, solved, wrong = [], {"c": 0, "g": 0}, 0
    for e in entries:
        folder = os.path.join(args.instances, e["folder"])
        files = [os.path.join(folder, e["mzn"])] + ([os.path.join(folder, e["dzn"])] if e["dzn"] else [])
        t = int(args.timeout)
        tc, cc, oc = timed([args.cpsolve, "--timeout", str(t)] + files, env, args.timeout)
        tg, cg, og = timed(["minizinc", "--solver", "org.gecode.gecodefix", "--time-limit", str(t * 1000)] + files,
                           env, args.timeout)
        sc, sg = status(oc, e["method"], cc), status(og, e["method"], cg)
        want = {"unsat": "unsat"}.get(e["status"], "complete")
        ok_c, ok_g = sc == want, sg == want
        if sc in ("unsat", "complete") and sc != want:
            wrong += 1
            sc = "WRONG:" + sc
        solved["c"] += ok_c
        solved["g"] += ok_g
        ratio = ""
        if ok_c and ok_g:
            ratios.append(tc / tg)
            ratio = "%.2f" % (tc / tg)
        print("%-22s %-26s %9.3f %9.3f %7s  %s/%s" % (e["folder"], e["dzn"] or "-", tc, tg, ratio, sc, sg), flush=True)
    geo = math.exp(sum(map(math.log, ratios)) / len(ratios)) if ratios else float("nan")
    print("# solved: cpsolve %d, gecode %d of %d; geometric mean ratio cpsolve/gecode over %d both solved: %.3f"
          % (solved["c"], solved["g"], len(entries), len(ratios), geo))
    print("# load average at end: %s" % open("/proc/loadavg").read().split()[:3])
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
