#!/usr/bin/env bash
# Benchmark: the model gallery (tests/corpus/model/*.puz) under cpsolve beside MiniZinc + Gecode
# on the twin models of bench/mzn/*.mzn, in the same run, rounds interleaved, medians of N runs.
# Each answer (count of solutions or proven optimum) is checked against the known one first.
# A benchmark, not a test: CI never runs it.  See notes/model-gallery.md for results.
#
# usage: bench/model.sh [--build] [--reps N] [--only NAME[,NAME...]] [--cap SECONDS]
#                       [--native] [--no-ff] [--cpsolve PATH] [--list]
#   --build        cargo build --release --bin cpsolve first (default: time the existing binary)
#   --reps N       timed runs per tool and model (default 5); medians are reported
#   --only NAMES   only these models (see --list)
#   --cap S        kill a run after S seconds (default 120)
#   --native       Gecode's native all_different_int instead of MiniZinc's alldifferent
#                  (which Debian's MiniZinc 2.6.4 + Gecode 6.2.0 decompose into int_lin_ne)
#   --no-ff        skip the Gecode run with cpsolve's search (the twin's `% search:` line)
#   --cpsolve PATH time this binary (default: a copy of target/release/cpsolve)
# Without minizinc on the PATH, only cpsolve is run and the peer is reported missing.
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)

BUILD=0
PASS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build) BUILD=1 ;;
    -h|--help) sed -n '2,18p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) PASS+=("$1") ;;
  esac
  shift
done

if ! command -v python3 >/dev/null 2>&1; then
  echo "model.sh: python3 is needed" >&2
  exit 2
fi
if [ $BUILD = 1 ]; then
  echo "== cargo build --release --bin cpsolve   (in $ROOT)"
  (cd "$ROOT" && cargo build --release --bin cpsolve)
fi
exec python3 "$BENCH_DIR/model_bench.py" ${PASS[@]+"${PASS[@]}"}
