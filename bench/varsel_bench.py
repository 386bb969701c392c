#!/usr/bin/env python3
"""Variable selection against the number of variables (issue 36): driver of bench/varsel.sh.

Each model is `N` variables in 1..10 and either a chain of `x[i] != x[i+1]` (each node
wakes one or two small propagators: the cost of a node is the cost of choosing its variable)
or one sum constraint (sum >= 2N: the model of issue 36), as a `.puz` with
`option var-order = ...` and as FlatZinc with `int_search(x, ..., indomain_min, complete)`
(or no annotation: every variable in input order). The search goes down one branch, about
one node per variable, so a per-node cost that grows with N shows as a time per node that
grows with N. Each binary runs each model once; a binary that needs more than the time limit
on a size is not run on the larger ones.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402


def puz(n, shape, order):
    if shape == "sum":
        constraint = f"sum(x) >= {2 * n}"
    else:
        constraint = f"forall i in 1..{n - 1}: x[i] != x[i + 1]"
    return f"var x[1..{n}] in 1..10\n{constraint}\noption var-order = {order}\n"


def fzn(n, shape, order):
    lines = [f"var 1..10: X_{i};" for i in range(1, n + 1)]
    names = ", ".join(f"X_{i}" for i in range(1, n + 1))
    lines.append(f"array [1..{n}] of var int: x :: output_array([1..{n}]) = [{names}];")
    if shape == "sum":
        ones = ", ".join("-1" for _ in range(n))
        lines.append(f"constraint int_lin_le([{ones}], x, {-2 * n});")
    else:
        lines.extend(f"constraint int_ne(X_{i}, X_{i + 1});" for i in range(1, n))
    if order == "none":
        lines.append("solve satisfy;")
    else:
        lines.append(f"solve :: int_search(x, {order}, indomain_min, complete) satisfy;")
    return "\n".join(lines) + "\n"


MODELS = [
    (f"{kind} {shape} {order}", kind, shape, order)
    for shape in ("chain", "sum")
    for kind, orders in (
        ("puz", ("input_order", "first_fail", "dom_w_deg")),
        ("fzn", ("none", "input_order", "first_fail", "dom_w_deg")),
    )
    for order in orders
]


def run(binary, path, limit):
    """(search ms, nodes, wall s), or None past the time limit."""
    start = time.monotonic()
    try:
        out = subprocess.run([binary, "--stats", path], capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return None
    wall = time.monotonic() - start
    stats = [line for line in (out.stdout + out.stderr).splitlines() if line.startswith("stats:")]
    if out.returncode != 0 or not stats:
        benchlib.die(f"{binary} {path}: exit {out.returncode}: {out.stderr[-300:]}")
    m = re.search(r"nodes (\d+).* time ([\d.]+) ms", stats[-1])
    return float(m.group(2)), int(m.group(1)), wall


def cell(result, skipped=False):
    if result is None:
        return ("skipped" if skipped else "> limit"), ""
    ms, nodes, wall = result
    return f"{ms / 1000:.3f} s ({wall:.2f})", f"{1e6 * ms / 1000 / max(nodes, 1):.2f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--new", required=True, help="the cpsolve binary to measure")
    parser.add_argument("--against", help="an older cpsolve binary, run beside it")
    parser.add_argument("--sizes", default="1000,10000,100000,1000000")
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per run (default 60)")
    parser.add_argument("--only", help="comma-separated model names (e.g. 'fzn chain first_fail')")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    binaries = [("new", args.new)] + ([("old", args.against)] if args.against else [])
    print(f"load average before: {benchlib.loadavg()}")
    print("search time (wall time of the whole run), nodes, and microseconds of search per node\n")
    header = "| model | N | nodes |" + "".join(f" {name}: search (wall) | {name}: µs/node |" for name, _ in binaries)
    print(header)
    print("|---|---:|---:|" + "---:|---:|" * len(binaries))
    with tempfile.TemporaryDirectory() as tmp:
        for name, kind, shape, order in MODELS:
            if args.only and name not in args.only.split(","):
                continue
            timed_out = set()
            for n in sizes:
                path = os.path.join(tmp, f"m.{kind}")
                with open(path, "w") as f:
                    f.write(puz(n, shape, order) if kind == "puz" else fzn(n, shape, order))
                row, nodes = [], ""
                for label, binary in binaries:
                    skipped = label in timed_out
                    result = None if skipped else run(binary, path, args.limit)
                    if result is None:
                        timed_out.add(label)
                    else:
                        nodes = nodes or str(result[1])
                    row.extend(cell(result, skipped))
                print(f"| {name} | {n} | {nodes} | " + " | ".join(row) + " |", flush=True)
    print(f"\nload average after: {benchlib.loadavg()}")


if __name__ == "__main__":
    main()
