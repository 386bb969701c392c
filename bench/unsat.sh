#!/usr/bin/env bash
# Benchmark: `cpsolve explain` on unsatisfiable puzzles of every kind it explains (issue 37):
# Sudokus of bench/grade/heldout.txt with one wrong extra given (a value that clashes with no
# given of its row, column or box), r×c grids whose row sums and column sums cannot both hold
# (a counting argument), random unsatisfiable cryptarithms, and Minesweeper positions of
# random layouts with one revealed number off by one. All drawn with a fixed seed; each
# puzzle's unsatisfiability is confirmed by solving it first. Reports per kind: how many end
# in "no solution" reached by steps, with no search step, the largest step (most
# constraints or numbers cited; a step told as a chain counts as its largest link), and the
# time per puzzle (median, max).
# A benchmark, not a test: CI never runs it. About a minute on one idle core.
#
# usage: bench/unsat.sh [--no-build] [--per-kind N]
#   --no-build      skip `cargo build --release --bin cpsolve`, use the existing binary
#   --per-kind N    puzzles of each kind (default 100)
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
# shellcheck source=bench/lib.sh
source "$BENCH_DIR/lib.sh"

bench_args "${BASH_SOURCE[0]}" "$@"

bench_need_python unsat.sh
bench_build unsat.sh "$ROOT" $BUILD

exec python3 "$BENCH_DIR/unsat_bench.py" --root "$ROOT" ${PASS[@]+"${PASS[@]}"}
