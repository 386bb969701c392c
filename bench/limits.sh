#!/usr/bin/env bash
# Benchmark: hostile inputs (issue 21) under --timeout and --memory: exit status, the limit
# named, wall time against the promise (limit + 10% + 50 ms) and peak resident memory.
# A benchmark, not a test: CI never runs it.  The table goes to the README's reliability
# section.
#
# usage: bench/limits.sh [--build] [--timeout SECONDS] [--memory MB] [--cpsolve PATH]
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)

PASS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build) (cd "$ROOT" && cargo build --release --bin cpsolve) ;;
    -h|--help) sed -n '2,8p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) PASS+=("$1") ;;
  esac
  shift
done
exec python3 "$BENCH_DIR/limits_bench.py" ${PASS[@]+"${PASS[@]}"}
