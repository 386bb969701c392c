#!/usr/bin/env bash
# Benchmark: `cpsolve explain` on the twenty Sudokus of bench/explain/sudoku/ (issue 19: each
# explained, every step verified, in <= 2 s; the easy ones with no case split).
# For each puzzle, `cpsolve explain --format json FILE` is run N times (whole process, output
# kept); the first run's JSON is checked (exit 0, ending "solved", one solution that is a
# Sudoku solution of the givens whose row 1 is the header's) and read for the table: givens,
# steps, case splits, the largest step (most constraints; most facts) and the median wall time.
# A failed check stops the benchmark (exit 1). A benchmark, not a test: CI never runs it.
#
# usage: bench/explain.sh [--runs N] [--no-build] [--only PATTERN]
#   --runs N        timed runs of each puzzle (default 3; the median is reported)
#   --no-build      skip `cargo build --release --bin cpsolve`, use the existing binary
#   --only PATTERN  only the puzzles whose file name contains PATTERN
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
# shellcheck source=bench/lib.sh
source "$BENCH_DIR/lib.sh"

bench_args "${BASH_SOURCE[0]}" "$@"

bench_need_python explain.sh
bench_build explain.sh "$ROOT" $BUILD

exec python3 "$BENCH_DIR/explain_bench.py" --root "$ROOT" ${PASS[@]+"${PASS[@]}"}
