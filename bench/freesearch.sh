#!/usr/bin/env bash
# Benchmark: cpsolve's own search (`fzn-cpsolve -f`) on the 34 optimisation instances of
# tests/minizinc/, under several sets of flags one after the other: how many are proved within
# the limit, and the best objective found for the others. This is how phase saving and
# restarts were chosen (notes/flatzinc.md). A benchmark, not a test: CI never runs it.
#
# usage: bench/freesearch.sh [--no-build] [--limit S] [--satisfy] [FLAGS ...]
#   --no-build   use target/release/fzn-cpsolve as it is
#   --limit S    seconds per instance (default 10)
#   --satisfy    the 22 satisfaction instances instead: which find a first solution (or
#                prove there is none) within the limit
#   FLAGS        one quoted string per configuration; default:
#                "--phase-saving never" "" "--restart-scale 1000"
# Needs minizinc (apt-get install minizinc) to flatten the models once.
set -euo pipefail
BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
# shellcheck source=bench/lib.sh
source "$BENCH_DIR/lib.sh"
BUILD=1
LIMIT=10
SATISFY=()
CONFIGS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) BUILD=0 ;;
    --limit) LIMIT=$2; shift ;;
    --satisfy) SATISFY=(--satisfy) ;;
    -h|--help) bench_usage "${BASH_SOURCE[0]}"; exit 0 ;;
    *) CONFIGS+=("$1") ;;
  esac
  shift
done
[ ${#CONFIGS[@]} -eq 0 ] && CONFIGS=("--phase-saving never" "" "--restart-scale 1000")
bench_need_python freesearch.sh
if ! command -v minizinc >/dev/null 2>&1; then
  echo "freesearch.sh: minizinc is needed to flatten the models (apt-get install minizinc)" >&2
  exit 2
fi
if [ $BUILD = 1 ]; then
  (cd "$ROOT" && cargo build --release --bin fzn-cpsolve)
fi
# A copy, so that a build during the run does not change the binary under test.
mkdir -p "$BENCH_DIR/.scratch/freesearch"
cp "$ROOT/target/release/fzn-cpsolve" "$BENCH_DIR/.scratch/freesearch/fzn-cpsolve"
exec python3 "$BENCH_DIR/freesearch_bench.py" --fzn-cpsolve "$BENCH_DIR/.scratch/freesearch/fzn-cpsolve" \
  --limit "$LIMIT" "${SATISFY[@]}" "${CONFIGS[@]}"
