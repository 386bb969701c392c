#!/usr/bin/env bash
# Benchmark: the no-three-in-line puzzle (`nothreeinline n = N`).
# A benchmark, not a test: CI never runs it.  See bench/README.md.
#
# 1. Counts for n = 2..10, all solutions (OEIS A000755) and distinct ones (A000769), each
#    checked against the OEIS, with the solver's time.
# 2. One solution for n = 10..30 with each symmetry option (rotational = 180°, rotational4
#    = 90°, diagonal = both diagonals) and without one (small n only), each under
#    --timeout; every solution printed is re-checked here (2 per row and column, no three
#    collinear, invariant under the option's symmetries).
# 3. With --plain A..B: the plain statement `nothreeinline n = N` (no option: cpsolve
#    chooses, see docs/language.md) with --first for n = A..B, each solution re-checked,
#    with wall time and nodes. Only this part runs then.
# Prints markdown tables. Exit 1 on a wrong count or an invalid solution.
#
# usage: bench/nothreeinline.sh [--no-build] [--timeout S] [--max-count N] [--min-n N]
#                               [--max-n N] [--max-plain N] [--no-counts] [--no-first]
#                               [--plain A..B]
#   --no-build      use the binary already in target/release
#   --timeout S     per run, default 60
#   --max-count N   counts up to N (default 10; 2..10 have OEIS values here)
#   --min-n/--max-n one solution for these n (default 10..30)
#   --max-plain N   without a symmetry option only up to N (default 16)
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)

BUILD=1
PASS=()
for arg in "$@"; do
  case "$arg" in
    --no-build) BUILD=0 ;;
    -h|--help) sed -n '2,24p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) PASS+=("$arg") ;;
  esac
done

if [ $BUILD = 1 ]; then
  echo "== cargo build --release --bin cpsolve   (in $ROOT)"
  (cd "$ROOT" && cargo build --release --bin cpsolve) || {
    echo "nothreeinline.sh: FAILED: cargo build (retry, or pass --no-build)" >&2
    exit 1
  }
fi
# target/ is shared: time a private copy, which nobody's build can replace mid-run.
mkdir -p "$BENCH_DIR/.scratch"
cp "$ROOT/target/release/cpsolve" "$BENCH_DIR/.scratch/cpsolve-nothreeinline"

exec python3 - "$BENCH_DIR/.scratch/cpsolve-nothreeinline" "${PASS[@]+"${PASS[@]}"}" <<'PY'
import argparse, json, os, subprocess, sys, time

ALL = {2: 1, 3: 2, 4: 11, 5: 32, 6: 50, 7: 132, 8: 380, 9: 368, 10: 1135}       # A000755
DISTINCT = {2: 1, 3: 1, 4: 4, 5: 5, 6: 11, 7: 22, 8: 57, 9: 51, 10: 156}        # A000769

ap = argparse.ArgumentParser()
ap.add_argument("binary")
ap.add_argument("--timeout", type=float, default=60)
ap.add_argument("--max-count", type=int, default=10)
ap.add_argument("--min-n", type=int, default=10)
ap.add_argument("--max-n", type=int, default=30)
ap.add_argument("--max-plain", type=int, default=16)
ap.add_argument("--no-counts", action="store_true")
ap.add_argument("--no-first", action="store_true")
ap.add_argument("--plain", metavar="A..B")
args = ap.parse_args()

def run(n, symmetry, mode):
    src = f"nothreeinline n = {n}\noption symmetry = {symmetry}\nsolve {mode}\n"
    start = time.monotonic()
    out = subprocess.run([args.binary, "-", "--format", "json", "--stats", "--timeout", str(args.timeout)],
                         input=src, capture_output=True, text=True)
    wall = time.monotonic() - start
    if out.returncode not in (0, 1, 3):
        sys.exit(f"cpsolve failed on {src!r}: exit {out.returncode}\n{out.stderr}")
    return json.loads(out.stdout), wall

def images(n, pts, t):
    m = n - 1
    f = [lambda r, c: (r, c), lambda r, c: (c, m - r), lambda r, c: (m - r, m - c), lambda r, c: (m - c, r),
         lambda r, c: (r, m - c), lambda r, c: (m - r, c), lambda r, c: (c, r), lambda r, c: (m - c, m - r)][t]
    return sorted(f(r, c) for r, c in pts)

GROUP = {"none": [], "rotational": [2], "rotational4": [1, 2, 3], "diagonal": [2, 6, 7]}

def check(n, pts, symmetry):
    pts = [tuple(p) for p in pts]
    assert len(pts) == 2 * n and len(set(pts)) == 2 * n, "2n distinct points"
    for i in range(n):
        assert sum(r == i for r, _ in pts) == 2 and sum(c == i for _, c in pts) == 2, f"row/column {i}"
    for i, a in enumerate(pts):
        for j in range(i + 1, len(pts)):
            b = pts[j]
            for c in pts[j + 1:]:
                assert (b[0] - a[0]) * (c[1] - a[1]) != (b[1] - a[1]) * (c[0] - a[0]), f"{a} {b} {c} collinear"
    for t in GROUP[symmetry]:
        assert images(n, pts, t) == sorted(pts), f"not invariant under symmetry {t}"

try:
    load = os.getloadavg()
    print(f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, timeout {args.timeout:g} s")
except OSError:
    pass

failed = False
if args.plain:
    lo, hi = (int(x) for x in args.plain.split(".."))
    print(f"\nPlain `nothreeinline n = N`, --first: wall s, nodes; `timeout` = none within {args.timeout:g} s.\n")
    print("| n | result | wall s | nodes | load |\n|---:|---|---:|---:|---:|")
    for n in range(lo, hi + 1):
        start = time.monotonic()
        out = subprocess.run([args.binary, "--first", "--format", "json", "--stats", "--timeout", str(args.timeout),
                              "-e", f"nothreeinline n = {n}"], capture_output=True, text=True)
        wall = time.monotonic() - start
        d = json.loads(out.stdout)
        if d["status"] == "solved":
            try:
                check(n, d["solutions"][0], "none")
                result = "2n points"
            except AssertionError as e:
                failed = True
                result = f"**INVALID** {e}"
        else:
            result = {"unsatisfiable": "none exists", "limit": "timeout"}.get(d["status"], d["status"])
        print(f"| {n} | {result} | {wall:.2f} | {d.get('stats', {}).get('nodes', '')} | {os.getloadavg()[0]:.1f} |",
              flush=True)
    sys.exit(1 if failed else 0)
if not args.no_counts:
    print("\n| n | all | A000755 | ms | distinct | A000769 | ms |\n|---:|---:|---:|---:|---:|---:|---:|")
    for n in range(2, args.max_count + 1):
        cells = []
        for symmetry, oeis in (("none", ALL), ("distinct", DISTINCT)):
            d, _ = run(n, symmetry, "count")
            got = d["count"] if d["status"] != "limit" else f"≥{d['count']} (limit)"
            ok = d["status"] != "limit" and oeis.get(n) in (None, d["count"])
            failed |= not ok
            cells += [f"{got}" + ("" if ok else " **WRONG**"), str(oeis.get(n, "?")), f"{d['stats']['time_ms']:.0f}"]
        print(f"| {n} | " + " | ".join(cells) + " |", flush=True)

if not args.no_first:
    options = ["rotational", "rotational4", "diagonal", "none"]
    print("\nOne solution: solver ms (nodes); `unsat` = proven none with that symmetry; "
          f"`timeout` = none within {args.timeout:g} s; `-` = not run.\n")
    print("| n | " + " | ".join(options) + " |\n|---:|" + "---:|" * len(options))
    for n in range(args.min_n, args.max_n + 1):
        cells = []
        for symmetry in options:
            if symmetry == "none" and n > args.max_plain:
                cells.append("-")
                continue
            d, _ = run(n, symmetry, "first")
            s = d.get("stats", {})
            if d["status"] == "solved":
                try:
                    check(n, d["solutions"][0], symmetry)
                    cells.append(f"{s['time_ms']:.0f} ({s['nodes']})")
                except AssertionError as e:
                    failed = True
                    cells.append(f"**INVALID** {e}")
            elif d["status"] == "unsatisfiable":
                cells.append(f"unsat {s.get('time_ms', 0):.0f}")
            else:
                cells.append("timeout")
        print(f"| {n} | " + " | ".join(cells) + " |", flush=True)

sys.exit(1 if failed else 0)
PY
