#!/usr/bin/env bash
# Benchmark: Number Match, app rules, random 35-digit starts (digits uniform 1-9, 9 columns,
# 5 adds). A benchmark, not a test: CI never runs it. See notes/numbermatch.md.
#
# 1. Proof time: N starts (default 100) solved one at a time on one thread, each with a proof
#    of optimality (fewest adds, then fewest moves) or of no win: median, 95th percentile, max
#    (a start still open after 120 s counts at 120 s).
# 2. The play table: G starts (default 1000) on T threads (default 2), exact search (per-start
#    time limit L s, default 10: a start cut short counts as undecided) beside the greedy
#    player; the shares won with 0..5 adds and never, and the wall time of the whole run.
#    --per-start P puts P of the T threads on each start (default: all T, one start at a
#    time; 1: T starts at once, one thread each, as before the sixth round).
#
# 3. With --against OLD: part 1 only, R times (--rounds, default 3) alternating the binary
#    OLD and this checkout's, so that both meet the same load on a shared machine.
#
# usage: bench/numbermatch.sh [--proofs N] [--games G] [--threads T] [--per-start P]
#                             [--limit L] [--seed S] [--no-build]
#                             [--against OLD_BINARY [--rounds R]]
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PROOFS=100
GAMES=1000
THREADS=2
PER_START=
LIMIT=10
SEED=1
BUILD=1
AGAINST=
ROUNDS=3
while [ $# -gt 0 ]; do
  case "$1" in
    --proofs) PROOFS=$2; shift ;;
    --games) GAMES=$2; shift ;;
    --threads) THREADS=$2; shift ;;
    --per-start) PER_START=$2; shift ;;
    --limit) LIMIT=$2; shift ;;
    --seed) SEED=$2; shift ;;
    --no-build) BUILD=0 ;;
    --against) AGAINST=$2; shift ;;
    --rounds) ROUNDS=$2; shift ;;
    -h|--help) sed -n '2,19p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "numbermatch.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done

if [ "$BUILD" = 1 ]; then
  (cd "$ROOT" && cargo build --release --bin cpsolve >&2)
fi
CPSOLVE=${CPSOLVE:-$ROOT/target/release/cpsolve}
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"

# Part 1 with the binary $1.
proofs() {
  echo "== proof time ($1): $PROOFS starts, seed $SEED, one thread, at most 120 s each"
  "$1" play numbermatch --games "$PROOFS" --seed "$SEED" --threads 1 --timeout 120 --format json |
    python3 -c '
import json, sys
d = json.load(sys.stdin)
t = d["solve_ms"]
print("median %.1f ms, 95th percentile %.1f ms, max %.1f ms, mean %.1f ms" % (t["median"], t["p95"], t["max"], t["mean"]))
print("won with 0..5 adds:", d["won_with_adds"], "never:", d["never"], "undecided after 120 s:", d["undecided"])
print("slowest starts:", ", ".join("#%d %.0f ms" % (s["start"], s["ms"]) for s in d["slowest"]))'
}

if [ -n "$AGAINST" ]; then
  for round in $(seq "$ROUNDS"); do
    echo "-- round $round, load $(cut -d' ' -f1-3 /proc/loadavg)"
    proofs "$AGAINST"
    proofs "$CPSOLVE"
  done
  echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
  exit 0
fi

if [ "$PROOFS" -gt 0 ]; then
  proofs "$CPSOLVE"
fi

echo "== play: $GAMES starts, seed $SEED, $THREADS threads (${PER_START:-$THREADS} per start), $LIMIT s per start"
start=$(date +%s.%N)
"$CPSOLVE" play numbermatch --games "$GAMES" --seed "$SEED" --threads "$THREADS" \
  --threads-per-start "${PER_START:-$THREADS}" --timeout "$LIMIT"
end=$(date +%s.%N)
echo "wall time $(python3 -c "print(f'{$end - $start:.1f}')") s; load after: $(cut -d' ' -f1-3 /proc/loadavg)"
