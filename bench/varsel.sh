#!/usr/bin/env bash
# Benchmark: variable selection against the number of variables (issue 36). N variables in
# 1..10 and one sum, as .puz and FlatZinc, in input order, first_fail and dom/wdeg, for N =
# 10^3 ... 10^6: search time, nodes and time per node. With --against, an older binary runs the
# same models in the same run (it is skipped on the sizes after one where it passed --limit).
# The time per node must stay flat as N grows (linear or n log n search). A benchmark, not a
# test: CI never runs it. See notes/engine-speed.md.
#
# usage: bench/varsel.sh [--no-build] [--against PATH] [--sizes 1000,10000] [--limit SECONDS]
#                        [--only 'fzn chain first_fail,puz sum dom_w_deg']
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
# shellcheck source=bench/lib.sh
source "$BENCH_DIR/lib.sh"

BUILD=1
PASS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) BUILD=0 ;;
    --against|--sizes|--limit|--only) PASS+=("$1" "$2"); shift ;;
    -h|--help) bench_usage "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "varsel.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
bench_need_python varsel.sh
bench_build varsel.sh "$ROOT" "$BUILD"
echo "cpsolve: $ROOT/target/release/cpsolve (git $(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo '?'))"
exec python3 "$BENCH_DIR/varsel_bench.py" --new "$ROOT/target/release/cpsolve" ${PASS[@]+"${PASS[@]}"}
