"""The user's commands, timed as the user runs them: `cpsolve model.mzn data.dzn` against
`minizinc --solver org.gecode.gecodefix model.mzn data.dzn`, wall time of the whole command,
no floor, on the instances of an expected.json (the public MiniZinc set's format). Prints one line
per instance, then the solved counts and the geometric mean of the time ratio cpsolve/Gecode
over the instances both solved. A run whose status contradicts expected.json is WRONG (exit 1).
With --msc, two more runs of cpsolve through `minizinc --solver MSC`: the plain one (what a
MiniZinc user gets, the model's annotation by default), timed as a third column, and an untimed
check of the user's command's answer (the same flags the command hands MiniZinc, `--search auto`,
with `--output-mode dzn --output-objective`): its proved optimum must be expected.json's, and no solution may beat it.
Driven by bench/user-commands.sh."""

import argparse
import json
import math
import os
import re
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


def objective(out):
    """The last `_objective = N;` printed (the best solution's), or None."""
    found = re.findall(r"^_objective = (-?\d+);", out, re.M)
    return int(found[-1]) if found else None


def check(e, st, obj):
    """Why an answer contradicts expected.json, or None."""
    want = {"unsat": "unsat"}.get(e["status"], "complete")
    if st in ("unsat", "complete") and st != want:
        return "status %s, expected %s" % (st, want)
    if e["method"] == "satisfy" or e.get("objective") is None or st not in ("complete", "solution"):
        return None
    if obj is None:
        return "no objective printed"
    better = obj < e["objective"] if e["method"] == "minimize" else obj > e["objective"]
    if better or (st == "complete" and obj != e["objective"]):
        return "objective %d, optimum %d" % (obj, e["objective"])
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--instances", required=True, help="a folder holding expected.json")
    ap.add_argument("--cpsolve", required=True)
    ap.add_argument("--solver-path", required=True, help="MZN_SOLVER_PATH holding gecodefix")
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("--only", default="")
    ap.add_argument("--msc", default="", help="cpsolve's solver configuration: adds `minizinc --solver MSC`")
    args = ap.parse_args()
    entries = json.load(open(os.path.join(args.instances, "expected.json")))
    if args.only:
        keep = args.only.split(",")
        entries = [e for e in entries if e["folder"] in keep]
    env = dict(os.environ, MZN_SOLVER_PATH=args.solver_path)
    print("# load average at start: %s" % open("/proc/loadavg").read().split()[:3])
    print("%-22s %-26s %9s %9s %7s %9s %7s  %s" % ("folder", "data", "cpsolve", "gecode", "ratio", "mzn-cps",
                                                 "ratio", "status c/g[/m] check"))
    ratios, mratios, solved, wrong = [], [], {"c": 0, "g": 0, "m": 0}, 0
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
        tm, mratio, extra = float("nan"), "", ""
        if args.msc:
            tm, cm, om = timed(["minizinc", "--solver", args.msc, "--time-limit", str(t * 1000)] + files, env,
                               args.timeout)
            sm = status(om, e["method"], cm)
            solved["m"] += sm == want
            if sm == want and ok_g:
                mratios.append(tm / tg)
                mratio = "%.2f" % (tm / tg)
            _, ck, ok = timed(["minizinc", "--solver", args.msc, "--search", "auto", "--learning", "auto",
                               "--output-mode", "dzn", "--output-objective", "--time-limit",
                               str(t * 1000)] + files, env, args.timeout)
            why = check(e, status(ok, e["method"], ck), objective(ok))
            if not why and sm in ("unsat", "complete") and sm != want:
                why = "minizinc --solver: status %s, expected %s" % (sm, want)
            if why:
                wrong += 1
            extra = "/%s %s" % (sm, "WRONG: " + why if why else "ok %s" % objective(ok))
        print("%-22s %-26s %9.3f %9.3f %7s %9.3f %7s  %s/%s%s" % (e["folder"], e["dzn"] or "-", tc, tg, ratio, tm,
                                                                  mratio, sc, sg, extra), flush=True)
    geo = math.exp(sum(map(math.log, ratios)) / len(ratios)) if ratios else float("nan")
    print("# solved: cpsolve %d, gecode %d of %d; geometric mean ratio cpsolve/gecode over %d both solved: %.3f"
          % (solved["c"], solved["g"], len(entries), len(ratios), geo))
    if args.msc:
        mgeo = math.exp(sum(map(math.log, mratios)) / len(mratios)) if mratios else float("nan")
        print("# minizinc --solver cpsolve: solved %d; geometric mean ratio over %d both solved: %.3f"
              % (solved["m"], len(mratios), mgeo))
    print("# load average at end: %s" % open("/proc/loadavg").read().split()[:3])
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
