#!/usr/bin/env bash
# Benchmark: Minesweeper analysis and the bot (see notes/minesweeper.md).
# A benchmark, not a test: CI never runs it.
#
# usage: bench/minesweeper.sh [--games N] [--midgame-games K] [--threads T] [--no-build]
#   --games N          games per level for the bot (default 2000; the published figures use 100000)
#   --midgame-games K  expert games whose stuck positions are analysed and timed (default 200)
#   --threads T        threads for the games (default 2)
#   --no-build         use the existing target/release/cpsolve
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
GAMES=2000
MIDGAME=200
THREADS=2
BUILD=1
while [ $# -gt 0 ]; do
  case "$1" in
    --games) GAMES=$2; shift ;;
    --midgame-games) MIDGAME=$2; shift ;;
    --threads) THREADS=$2; shift ;;
    --no-build) BUILD=0 ;;
    -h|--help) sed -n '2,10p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
cd "$ROOT"
if [ "$BUILD" = 1 ]; then
  cargo build --release --bin cpsolve
fi
BIN=target/release/cpsolve
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

echo "== single positions (in-process time of the analysis, best of 5)"
for f in tests/corpus/minesweeper/expert.puz tests/corpus/minesweeper/minesweepr-readme.puz \
         bench/minesweeper-checkerboard.puz bench/minesweeper-stripes.puz; do
  best=""
  for _ in 1 2 3 4 5; do
    t=$("$BIN" --format json --stats "$f" | sed 's/.*"time_ms":\([0-9.e-]*\).*/\1/')
    best=$(printf '%s\n%s\n' "$t" "$best" | grep . | sort -g | head -1)
  done
  printf '%-48s %s ms\n' "$f" "$best"
done

echo "== expert mid-game positions ($MIDGAME games)"
MINESWEEPER_BENCH_GAMES=$MIDGAME cargo test --release -q -p cpsolve-puzzles --test minesweeper \
  -- --nocapture expert_midgame_analysis_times 2>&1 | grep "expert mid-game"

echo "== bot: $GAMES games per level, $THREADS threads, seed 1"
for spec in "beginner safe" "intermediate safe" "expert safe" "expert opening"; do
  set -- $spec
  "$BIN" play minesweeper --level "$1" --first-click "$2" --games "$GAMES" --seed 1 --threads "$THREADS"
done
