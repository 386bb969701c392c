#!/usr/bin/env bash
# Benchmark: instructions per search node, counted by callgrind (valgrind), so the figures do
# not depend on the machine's load. The whole process is counted (start, compile, search,
# output); nodes come from `--stats`. With --against, a second binary (an older build) runs the
# same workloads in the same run and the ratio new / old is printed.
# A benchmark, not a test: CI never runs it. See notes/engine-speed.md.
#
# usage: bench/instructions.sh [--no-build] [--against PATH]
#   --no-build      use the binary already in target/release
#   --against PATH  another cpsolve binary to count beside it (e.g. a build of an older commit)
# Needs valgrind (apt-get install valgrind).
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
# shellcheck source=bench/lib.sh
source "$BENCH_DIR/lib.sh"

BUILD=1
AGAINST=""
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) BUILD=0 ;;
    --against) AGAINST=$2; shift ;;
    -h|--help) bench_usage "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "instructions.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
if ! command -v valgrind >/dev/null 2>&1; then
  echo "instructions.sh: valgrind is needed (apt-get install valgrind)" >&2
  exit 2
fi
bench_build instructions.sh "$ROOT" "$BUILD"
NEW="$ROOT/target/release/cpsolve"
C="$ROOT/tests/corpus"

# name | arguments (word-split on purpose: no spaces inside an argument)
WORKLOADS=(
  "crypt40|--all $C/cryptarithm/*.puz"
  "golomb-8|$C/model/golomb-8.puz"
  "sudoku-hardest|$C/model/sudoku-hardest.puz"
  "knapsack|$C/model/knapsack.puz"
  "magic-square-3|--all $C/model/magic-square-3.puz"
  "queens-generic-8|--all $C/model/queens.puz"
)

instructions() { # binary, args...
  local bin=$1; shift
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$@" 2>&1 >/dev/null \
    | awk '/Collected/ { print $4 }'
}
nodes() { # binary, args...
  local bin=$1; shift
  "$bin" --stats "$@" 2>&1 | awk '/^stats:/ { for (i = 1; i < NF; i++) if ($i == "nodes") n += $(i + 1) } END { print n + 0 }'
}

echo "cpsolve: $NEW (git $(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo '?'))"
[ -n "$AGAINST" ] && echo "against: $AGAINST"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)  (callgrind counts do not depend on it)"
echo
if [ -n "$AGAINST" ]; then
  printf '| %-18s | %8s | %14s | %10s | %14s | %10s | %9s |\n' workload nodes instructions "per node" "against: instr" "per node" "new / old"
  echo "|---|---:|---:|---:|---:|---:|---:|"
else
  printf '| %-18s | %8s | %14s | %10s |\n' workload nodes instructions "per node"
  echo "|---|---:|---:|---:|"
fi
for entry in "${WORKLOADS[@]}"; do
  name=${entry%%|*}
  # shellcheck disable=SC2086
  set -- ${entry#*|}
  ir=$(instructions "$NEW" "$@")
  n=$(nodes "$NEW" "$@")
  per=$(( ir / (n > 0 ? n : 1) ))
  if [ -n "$AGAINST" ]; then
    old_ir=$(instructions "$AGAINST" "$@")
    old_n=$(nodes "$AGAINST" "$@")
    old_per=$(( old_ir / (old_n > 0 ? old_n : 1) ))
    ratio=$(awk -v a="$ir" -v b="$old_ir" 'BEGIN { printf "%.3f", a / b }')
    printf '| %-18s | %8s | %14s | %10s | %14s | %10s | %9s |\n' "$name" "$n" "$ir" "$per" "$old_ir" "$old_per" "$ratio"
  else
    printf '| %-18s | %8s | %14s | %10s |\n' "$name" "$n" "$ir" "$per"
  fi
done
