#!/usr/bin/env bash
# Runs every benchmark of bench/ and writes one results file, bench/results/DATE.md: the date,
# the machine (CPU model, cores, RAM), the load average before and after each benchmark, the
# tools' versions, and each benchmark's output (its tables) with the command that printed it.
# Run bench/setup.sh once first (it installs the peers). A benchmark, not a test: CI never
# runs it. Every benchmark checks its answers before it times anything; one that fails is
# recorded as FAILED, the others still run, and the exit status is 1.
#
# usage: bench/run-all.sh [--quick] [--only NAMES] [--skip NAMES] [--no-build] [--out FILE]
#                         [--list]
#   --quick        tiny sizes and single runs, to check the plumbing in a few minutes; the
#                  figures mean nothing (results file DATE-quick.md, which git ignores)
#   --only NAMES   only these benchmarks, comma-separated (see --list)
#   --skip NAMES   all but these
#   --no-build     time the binaries already in target/release (default: build them first)
#   --out FILE     the results file (default bench/results/DATE.md, DATE-2.md... if taken)
#   --list         the benchmarks, with the command of each and how long it takes
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
# shellcheck source=bench/lib.sh
source "$BENCH_DIR/lib.sh"

# name | full arguments | --quick arguments | time of the full run on the 2-core machine
# Every script is told --no-build (or not told --build): run-all builds once, below.
BENCHMARKS=(
  "crypt|crypt.sh --no-build|crypt.sh --no-build --runs 3 --no-gp-inproc|1 min"
  "crypt-formulations|crypt.sh --no-build --formulations|crypt.sh --no-build --formulations --runs 3|1 min"
  "queens|queens.sh --no-build --runs 3|queens.sh --no-build --quick --runs 1 --warmup 0|3 min"
  "compte|compte.sh --no-build|compte.sh --no-build --runs 1|1 min"
  "explain|explain.sh --no-build|explain.sh --no-build --runs 1 --only wikipedia|2 min"
  "unsat|unsat.sh --no-build|unsat.sh --no-build --per-kind 10|2 min"
  "chain|chain.sh --no-build|chain.sh --no-build --sizes 500,1000|1 min"
  "nothreeinline|nothreeinline.sh --no-build|nothreeinline.sh --no-build --max-count 6 --min-n 10 --max-n 12 --max-plain 10 --timeout 5|25 min"
  "minesweeper|minesweeper.sh --no-build|minesweeper.sh --no-build --games 20 --midgame-games 5|10 min"
  "numbermatch|numbermatch.sh --no-build|numbermatch.sh --no-build --proofs 3 --games 20 --limit 2|15 min"
  "model|model.sh --native|model.sh --native --reps 1 --cap 20 --only sudoku-hardest,golomb-8,knights-tour-6|7 min"
  "minizinc|minizinc.sh --out bench/.scratch/run-all/results-minizinc.txt|minizinc.sh --timeout 10 --only golomb/03,magicseq/005,jobshop/jobshop_ft06|5 min"
  "limits|limits.sh|limits.sh --timeout 1 --memory 200|1 min"
  "freesearch|freesearch.sh --no-build|freesearch.sh --no-build --limit 1|10 min"
  "instructions|instructions.sh --no-build|instructions.sh --no-build|1 min"
  "varsel|varsel.sh --no-build|varsel.sh --no-build --sizes 1000,10000|2 min"
)

ARGS=$*           # for the results file, before the loop below shifts them away
QUICK=0
BUILD=1
ONLY=""
SKIP=""
OUT=""
LIST=0
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) QUICK=1 ;;
    --only) ONLY=$2; shift ;;
    --skip) SKIP=$2; shift ;;
    --no-build) BUILD=0 ;;
    --out) OUT=$2; shift ;;
    --list) LIST=1 ;;
    -h|--help) bench_usage "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "run-all.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

in_list() { [[ ",$2," == *",$1,"* ]]; }

names=()
for entry in "${BENCHMARKS[@]}"; do names+=("${entry%%|*}"); done
for n in ${ONLY//,/ } ${SKIP//,/ }; do
  in_list "$n" "$(IFS=,; echo "${names[*]}")" || { echo "run-all.sh: no benchmark $n (see --list)" >&2; exit 2; }
done

if [ $LIST = 1 ]; then
  for entry in "${BENCHMARKS[@]}"; do
    IFS='|' read -r name full quick took <<<"$entry"
    printf '%-20s %-8s bench/%s\n%-29s quick: bench/%s\n' "$name" "$took" "$full" "" "$quick"
  done
  exit 0
fi

bench_need_python run-all.sh
DAY=$(date -u +%Y-%m-%d)
if [ -z "$OUT" ]; then
  mkdir -p "$BENCH_DIR/results"
  if [ $QUICK = 1 ]; then
    OUT=$BENCH_DIR/results/$DAY-quick.md
  else
    OUT=$BENCH_DIR/results/$DAY.md
    i=2
    while [ -e "$OUT" ]; do OUT=$BENCH_DIR/results/$DAY-$i.md; i=$((i + 1)); done
  fi
fi
LOG_DIR=$BENCH_DIR/.scratch/run-all
mkdir -p "$LOG_DIR"

loadavg() { cut -d' ' -f1-3 /proc/loadavg; }

# Everything is compiled before anything is timed, minesweeper.sh's test program included
# (it times the mid-game analyses inside `cargo test`, which would compile it otherwise).
if [ $BUILD = 1 ]; then
  echo "== cargo build --release --bin cpsolve --bin fzn-cpsolve   (in $ROOT)"
  if ! (cd "$ROOT" && cargo build --release --bin cpsolve --bin fzn-cpsolve \
        && cargo test --release --no-run -p cpsolve-puzzles --test minesweeper); then
    echo "run-all.sh: FAILED: cargo build (retry, or pass --no-build to time the binaries already built)" >&2
    exit 1
  fi
fi

START_LOAD=$(loadavg)
{
  echo "# Benchmark results, $(date -u '+%Y-%m-%d %H:%M UTC')$([ $QUICK = 1 ] && echo ' (--quick: plumbing check, the figures mean nothing)')"
  echo
  echo "Written by \`bench/run-all.sh${ARGS:+ $ARGS}\`."
  echo
  echo "## Machine"
  echo
  echo "- CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) cores available"
  echo "- RAM: $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
  echo "- system: $( (. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME") || uname -s), kernel $(uname -r)"
  echo "- load average (1, 5, 15 min) at the start: $START_LOAD"
  echo
  echo "## Versions"
  echo
  bench_versions "$BENCH_DIR"
} >"$OUT"

failed=()
for entry in "${BENCHMARKS[@]}"; do
  IFS='|' read -r name full quick took <<<"$entry"
  if [ -n "$ONLY" ] && ! in_list "$name" "$ONLY"; then continue; fi
  if in_list "$name" "$SKIP"; then continue; fi
  cmd=$full
  [ $QUICK = 1 ] && cmd=$quick
  read -r -a argv <<<"$cmd"
  log=$LOG_DIR/$name.txt
  echo
  echo "======== $name: bench/$cmd"
  before=$(loadavg)
  t0=$(date +%s)
  status=0
  (cd "$ROOT" && "$BENCH_DIR/${argv[0]}" "${argv[@]:1}") 2>&1 | tee "$log" || status=${PIPESTATUS[0]}
  t1=$(date +%s)
  after=$(loadavg)
  [ "$status" = 0 ] || failed+=("$name")
  {
    echo
    echo "## $name"
    echo
    echo "\`bench/$cmd\`: $([ "$status" = 0 ] && echo "exit 0" || echo "**FAILED**, exit $status"), $((t1 - t0)) s,"
    echo "load average $before before, $after after."
    echo
    echo '```text'
    # The cargo and compiler lines of a build are noise here; the answers and tables stay.
    # Paths are shown from the repository root: the file names no directory of the machine.
    { grep -v -E '^ *(Compiling|Finished|Running|Blocking waiting) ' "$log" || true; } | sed "s|$ROOT/||g"
    echo '```'
  } >>"$OUT"
done

{
  echo
  echo "## End"
  echo
  echo "Load average at the end: $(loadavg) (at the start: $START_LOAD)."
  if [ ${#failed[@]} -gt 0 ]; then echo "FAILED: ${failed[*]}."; else echo "Every benchmark ran and every answer checked."; fi
} >>"$OUT"

echo
echo "== results: ${OUT#"$ROOT/"}"
if [ ${#failed[@]} -gt 0 ]; then
  echo "run-all.sh: FAILED: ${failed[*]}" >&2
  exit 1
fi
