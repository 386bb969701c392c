#!/usr/bin/env bash
# Benchmark: Le Compte est Bon / Countdown in cpsolve (bench/README.md, "Compte est Bon").
#   1. one 6-tile game, all distinct solutions (100 2 1 10 4 3 -> 819), whole process
#   2. the full table (`cpsolve table compte`: 13,243 selections x 899 targets), 1 and 2 threads
#   3. 8 tiles, every target 101..999 of one selection (`table compte --tiles ...`)
# Every run's output is checked first (the table against the published figures); a
# mismatch stops the benchmark (exit 1). A benchmark, not a test: CI never runs it.
#
# usage: bench/compte.sh [--runs N] [--no-build]
#   --runs N     timed runs of each command (default 21; the table gets min(N, 5))
#   --no-build   skip `cargo build --release --bin cpsolve`, use the existing binary
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
# shellcheck source=bench/lib.sh
source "$BENCH_DIR/lib.sh"

bench_args "${BASH_SOURCE[0]}" "$@"

bench_need_python compte.sh
bench_build compte.sh "$ROOT" $BUILD

exec python3 "$BENCH_DIR/compte_bench.py" --root "$ROOT" ${PASS[@]+"${PASS[@]}"}
