#!/usr/bin/env bash
# Benchmark: the grade of `cpsolve explain` against Sukaku Explainer's published ratings, on
# the tuning and held-out Sudokus of bench/grade/ (issue 37). Each puzzle is explained once
# (`cpsolve explain --format json -`, a whole process, timed); the answer is checked (solved,
# one solution that is a Sudoku of the givens, a grade) before anything is counted. Prints
# Spearman's rho per set, the grades per rating band, the time per puzzle and the largest
# disagreements; writes bench/grade/results.tsv and notes/grade-scatter.svg.
# A benchmark, not a test: CI never runs it. About 4 minutes on one idle core.
#
# usage: bench/grade.sh [--no-build] [--only tuning|heldout] [--limit N] [--keep DIR]
#   --no-build      skip `cargo build --release --bin cpsolve`, use the existing binary
#   --only SET      one set only
#   --limit N       the first N puzzles of each set (a quick check of the plumbing)
#   --keep DIR      also write each puzzle's JSON answer under DIR (for bench/grade/features.py)
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
# shellcheck source=bench/lib.sh
source "$BENCH_DIR/lib.sh"

bench_args "${BASH_SOURCE[0]}" "$@"

bench_need_python grade.sh
bench_build grade.sh "$ROOT" $BUILD

exec python3 "$BENCH_DIR/grade/grade_bench.py" --root "$ROOT" ${PASS[@]+"${PASS[@]}"}
