#!/usr/bin/env bash
# Benchmark: cpsolve on N-queens (count all solutions, 1 and 2 threads; the generic .puz model;
# first solution for large n) beside the peers kept in bench/peers/queens/: the C bitboard counter
# (nqueens.c, gcc -O2), GNU Prolog (queens_gp.pl, pairwise model, gplc --no-top-level) and,
# only if libgecode-dev is already installed, Gecode C++ (queens_gecode.cpp).
# A benchmark, not a test: CI never runs it.  See bench/README.md, section "Queens".
#
# usage: bench/queens.sh [--runs N] [--heavy-runs M] [--quick] [--install-peers] [--no-build]
#                        [--warmup K] [--peers DIR]
#   --runs N          timed runs of each fast command (default 5); median and min are reported
#   --heavy-runs M    timed runs for n >= 15 and first-solution n = 10000 (default: min(N, 3))
#   --quick           skip n >= 15 and n = 10000 (about 30 s instead of a few minutes)
#   --install-peers   apt-get install -y gprolog first (needs root)
#   --no-build        skip `cargo build --release --bin cpsolve`, use the existing binary
#   --warmup K        untimed rounds before the fast group (default 1; the heavy group has none)
#   --peers DIR       where queens/nqueens.c and queens/queens_gp.pl live
#                     (default bench/peers)
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
# shellcheck source=bench/lib.sh
source "$BENCH_DIR/lib.sh"

BUILD=1
INSTALL=0
PASS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --install-peers) INSTALL=1 ;;
    --no-build) BUILD=0 ;;
    -h|--help) bench_usage "${BASH_SOURCE[0]}"; exit 0 ;;
    *) PASS+=("$1") ;;
  esac
  shift
done

bench_need_python queens.sh
if [ $INSTALL = 1 ]; then bench_install_gprolog; fi
bench_build queens.sh "$ROOT" $BUILD

exec python3 "$BENCH_DIR/queens_bench.py" --root "$ROOT" ${PASS[@]+"${PASS[@]}"}
