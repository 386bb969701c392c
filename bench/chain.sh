#!/usr/bin/env bash
# Benchmark: `cpsolve explain` on long models, the chain `forall i in 1..n-1: x[i] < x[i+1]`
# over `1..n` (issue 37: a chain of 4,000 in at most 5 s and 200 MB). For each n, one run
# (spawn to exit, text output): wall time, peak memory (the child's maximum resident set), the
# number of steps, and the largest step (constraints cited); the explanation must end solved
# with x[i] = i. A benchmark, not a test: CI never runs it. Under a minute on one core.
#
# usage: bench/chain.sh [--no-build] [--sizes N,N,...]
#   --no-build      skip `cargo build --release --bin cpsolve`, use the existing binary
#   --sizes L       chain lengths (default 500,1000,2000,4000)
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
# shellcheck source=bench/lib.sh
source "$BENCH_DIR/lib.sh"

bench_args "${BASH_SOURCE[0]}" "$@"

bench_need_python chain.sh
bench_build chain.sh "$ROOT" $BUILD

exec python3 "$BENCH_DIR/chain_bench.py" --root "$ROOT" ${PASS[@]+"${PASS[@]}"}
