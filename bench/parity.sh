#!/usr/bin/env bash
# Benchmark: random parity systems (FlatZinc `array_bool_xor`), the case the elimination of
# parity systems is for. For each size n, a satisfiable system of about 0.95·n equations of
# 3–6 variables over n Booleans (seeded: the same systems every run), solved by fzn-cpsolve
# with free search; each solution is checked against the equations. With --against, the
# same systems under another fzn-cpsolve binary (an older build) in the same run, one after
# the other. A benchmark, not a test: CI never runs it. A few minutes at most.
#
# usage: bench/parity.sh [--no-build] [--sizes N,N,...] [--timeout S] [--against BINARY]
#   --no-build      skip `cargo build --release --bin fzn-cpsolve`, use the existing binary
#   --sizes L       numbers of variables (default 100,300,600,1000)
#   --timeout S     seconds per run (default 30)
#   --against B     also run fzn-cpsolve binary B on each system
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
# shellcheck source=bench/lib.sh
source "$BENCH_DIR/lib.sh"

bench_args "${BASH_SOURCE[0]}" "$@"

bench_need_python parity.sh
bench_build parity.sh "$ROOT" $BUILD fzn-cpsolve
exec python3 "$BENCH_DIR/parity_bench.py" --root "$ROOT" ${PASS[@]+"${PASS[@]}"}
