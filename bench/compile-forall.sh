#!/usr/bin/env bash
# Benchmark: the time to compile a 100,000-iteration `forall` whose body calls a predicate
# with a `let`, beside the same model written out by hand (issue 34: under 1 s).
# The model ends in a contradiction found at the root (x[1] + x[2] == 100 over 0..9), so
# cpsolve stops right after compiling and the time measured is the compiler's (the search
# over 100,000 variables would be timed otherwise). A benchmark, not a test: CI never runs it.
#
# usage: bench/compile-forall.sh [--build] [--reps N] [--n N]
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REPS=5
N=100000
while [ $# -gt 0 ]; do
  case "$1" in
    --build) (cd "$ROOT" && cargo build --release --bin cpsolve) ;;
    --reps) REPS=$2; shift ;;
    --n) N=$2; shift ;;
    -h|--help) sed -n '2,8p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
BIN="$ROOT/target/release/cpsolve"
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
cat > "$DIR/predicate.puz" <<PUZ
let n = $N
var x[1..n] in 0..9
predicate step(a, i) = let d = a[i + 1] - a[i] in d >= -1 and d <= 1
forall i in 1..n - 1: step(x, i)
x[1] + x[2] == 100
PUZ
cat > "$DIR/by-hand.puz" <<PUZ
let n = $N
var x[1..n] in 0..9
forall i in 1..n - 1: x[i + 1] - x[i] >= -1 and x[i + 1] - x[i] <= 1
x[1] + x[2] == 100
PUZ
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
for model in predicate by-hand; do
  times=()
  for _ in $(seq "$REPS"); do
    start=$(date +%s.%N)
    status=0
    "$BIN" "$DIR/$model.puz" > /dev/null 2>&1 || status=$?
    end=$(date +%s.%N)
    [ "$status" = 1 ] || { echo "$model: expected exit 1 (no solution), got $status" >&2; exit 1; }
    times+=("$(echo "$end - $start" | bc)")
  done
  median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (REPS + 1) / 2 ))p")
  echo "$model: median ${median}s over $REPS runs (n = $N)"
done
