#!/usr/bin/env bash
# Benchmark: the "new user" measure of issue 49. 55 public MiniZinc models (hakank, the
# MiniZinc handbook, the MiniZinc benchmarks, CSPLib), chosen by the seeded rule of
# bench/newuser/README.md, each run twice: as written (asis.puz: the .mzn with its .dzn
# pasted at the end, unchanged) and with the fewest changes that make it run (fixed.puz;
# each change is a row of bench/newuser/deviations.tsv). Every answer is checked against
# Gecode's, stored in bench/newuser/expected.tsv (no Gecode needed here). Prints a table and
# the tallies (accepted as written, agree as written, agree after the deviations); writes
# bench/newuser/results.tsv (a whole run only). Exit 1 if an answer disagrees.
# Findings: notes/newuser.md. A benchmark, not a test: CI never runs it. A few minutes on one idle core.
#
# usage: bench/newuser.sh [--no-build] [--only TEXT] [--timeout SECONDS]
#   --no-build      skip `cargo build --release --bin cpsolve`, use the existing binary
#   --only TEXT     the models whose folder name contains TEXT
#   --timeout S     per run (default 60)
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
# shellcheck source=bench/lib.sh
source "$BENCH_DIR/lib.sh"

bench_args "${BASH_SOURCE[0]}" "$@"

bench_need_python newuser.sh
bench_build newuser.sh "$ROOT" $BUILD
echo "== cpsolve $(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo '?'), $(date -u '+%Y-%m-%d %H:%M UTC')"

exec python3 "$BENCH_DIR/newuser/run.py" --bin "$ROOT/target/release/cpsolve" ${PASS[@]+"${PASS[@]}"}
