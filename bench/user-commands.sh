#!/usr/bin/env bash
# Benchmark: the user's commands on MiniZinc instances, `cpsolve model.mzn data.dzn` against
# `minizinc --solver org.gecode.gecodefix model.mzn data.dzn` (Gecode with its native
# globals, bench/peers/gecodefix.sh), wall time of the whole command, no floor; the solved
# counts and the geometric mean of the time ratio. One instance at a time, cpsolve then Gecode.
# A benchmark, not a test: CI never runs it. See bench/README.md.
#
# usage: bench/user-commands.sh [--build] [--timeout S] --instances DIR [--only FOLDERS]
#   --build          cargo build --release --bin cpsolve first
#   --timeout S      per instance and solver (default 20)
#   --instances DIR  a folder of instances with their expected.json (the public MiniZinc
#                    benchmark set, one sub-folder per problem); required
#   --only F1,F2     only these folders
#   --msc FILE       also cpsolve through `minizinc --solver FILE` (solvers/cpsolve.msc, which
#                    runs target/release/fzn-cpsolve: build it first): the plain run, timed, and
#                    an untimed run of the user's command's search with `--output-objective`
#                    whose answer is checked against expected.json's optimum
set -euo pipefail
BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
source "$BENCH_DIR/lib.sh"
BUILD=0
PASS=()
INSTANCES=
while [ $# -gt 0 ]; do
  case "$1" in
    --build) BUILD=1 ;;
    --instances) INSTANCES=$2; shift ;;
    -h|--help) bench_usage "${BASH_SOURCE[0]}"; exit 0 ;;
    *) PASS+=("$1") ;;
  esac
  shift
done
[ -n "$INSTANCES" ] || { echo "user-commands.sh: --instances DIR is required (a folder with expected.json)" >&2; exit 2; }
bench_need_python user-commands.sh
bench_build user-commands.sh "$ROOT" "$BUILD" cpsolve
GECODE_SOLVERS=$("$BENCH_DIR/peers/gecodefix.sh" "$BENCH_DIR/.scratch/gecodefix")
exec python3 "$BENCH_DIR/user_commands_bench.py" --instances "$INSTANCES" --cpsolve "$ROOT/target/release/cpsolve" \
  --solver-path "$GECODE_SOLVERS" ${PASS[@]+"${PASS[@]}"}
