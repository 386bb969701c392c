#!/usr/bin/env bash
# Benchmark: the MiniZinc instances of tests/minizinc/ under cpsolve and under Gecode, both
# through `minizinc` (flattening included), one solver after the other on each instance, in the
# same run. Each answer is checked against expected.json (Gecode's proved status and optimum):
# a wrong one is reported as WRONG and makes the script exit 1.
# A benchmark, not a test: CI never runs it. See bench/README.md.
#
# usage: bench/minizinc.sh [--build] [--timeout S] [--only NAME[,NAME...]] [--no-gecode]
#                          [--no-cpsolve] [--out FILE] [--list]
#   --build        cargo build --release --bin fzn-cpsolve first (default: the binary already
#                  in target/release)
#   --timeout S    time limit per instance and solver, in seconds (default 60)
#   --only NAMES   only these folders (golomb) or instances (golomb/03) of tests/minizinc/
#   --no-gecode    cpsolve alone;  --no-cpsolve: Gecode alone
#   --out FILE     the results file (default bench/results-minizinc-DATE.txt; with --only,
#                  bench/.scratch/minizinc/results-minizinc-DATE-only.txt)
#   --list         list the instances with their expected answers
# Peers: MiniZinc 2.6.4 and Gecode 6.2.0 from Debian, installed if missing (as root), through
# bench/peers/gecodefix.sh. Without target/release/fzn-cpsolve, cpsolve's runs are ERROR.
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
source "$BENCH_DIR/lib.sh"

BUILD=0
CPSOLVE=1
PASS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build) BUILD=1 ;;
    --no-cpsolve) CPSOLVE=0; PASS+=("$1") ;;
    --list) bench_need_python minizinc.sh; exec python3 "$BENCH_DIR/minizinc_bench.py" --list ;;
    -h|--help) bench_usage "${BASH_SOURCE[0]}"; exit 0 ;;
    *) PASS+=("$1") ;;
  esac
  shift
done
bench_need_python minizinc.sh

if [ $BUILD = 1 ] && [ $CPSOLVE = 1 ]; then
  echo "== cargo build --release --bin fzn-cpsolve   (in $ROOT)"
  if ! (cd "$ROOT" && cargo build --release --bin fzn-cpsolve); then
    echo "minizinc.sh: FAILED: cargo build --release --bin fzn-cpsolve" >&2
    echo "  (if someone is mid-edit, retry in a minute, or drop --build to time the existing binary)" >&2
    exit 1
  fi
fi

# The peer (and minizinc itself): installed if missing; prints its solver directory.
GECODE_SOLVERS=$("$BENCH_DIR/peers/gecodefix.sh" "$BENCH_DIR/.scratch/gecodefix")

# A snapshot of cpsolve (binary, mznlib/, configuration) in bench/.scratch/minizinc/cpsolve/.
SNAP=$BENCH_DIR/.scratch/minizinc/cpsolve
bench_cpsolve_snapshot minizinc.sh "$ROOT" "$SNAP" "$CPSOLVE"

exec python3 "$BENCH_DIR/minizinc_bench.py" --solver-path "$SNAP/solvers:$GECODE_SOLVERS" \
  --cpsolve-bin "$SNAP/fzn-cpsolve" ${PASS[@]+"${PASS[@]}"}
