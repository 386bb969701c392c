#!/usr/bin/env bash
# Benchmark: hard MiniZinc instances under cpsolve, Gecode with its native globals and Pumpkin
# (lazy clause generation), one solver after the other on each instance (never two at once),
# all through `minizinc` with free search. Each answer is checked against the folder's
# expected.json: a wrong one is reported as WRONG and makes the script exit 1.
# A benchmark, not a test: CI never runs it. See bench/README.md.
#
# usage: bench/hard.sh FOLDER [--build] [--timeout S] [--only NAME[,NAME...]]
#                      [--solvers cpsolve,gecode,pumpkin] [--search free|model] [--out FILE]
#                      [--list]
#   FOLDER         the instances: one sub-folder per problem and an expected.json, as in
#                  bench/mzn-hard/ (the held-out set kept in the repository)
#   --build        cargo build --release --bin fzn-cpsolve first (default: the binary already
#                  in target/release)
#   --timeout S    time limit per instance and solver, in seconds (default 60)
#   --only NAMES   only these folders (rcpsp) or instances (rcpsp/J30_1_2)
#   --solvers L    which solvers, in this order (default cpsolve,gecode,pumpkin)
#   --search S     free (default): -f for all, each solver may ignore the model's search
#                  annotations; model: no -f, each follows the annotations
#   --out FILE     the results file (default bench/results-hard-DATE.txt; with --only,
#                  bench/.scratch/hard/results-hard-DATE-only.txt)
#   --list         list the instances with their expected answers
# Flags, the same for the three: -s --output-mode dzn --output-objective -t MS -f (free
# search; left out with --search model), and -i on an optimisation problem (so the best solution found is printed when the
# limit strikes). Peers: bench/peers/gecodefix.sh and bench/peers/pumpkin.sh, set up (or
# installed) on the way; Pumpkin's first install runs `cargo install` (a few minutes).
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
source "$BENCH_DIR/lib.sh"

BUILD=0
FOLDER=
SOLVERS=cpsolve,gecode,pumpkin
LIST=0
PASS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build) BUILD=1 ;;
    --list) LIST=1 ;;
    --solvers) SOLVERS=${2:?--solvers needs a list}; shift ;;
    --timeout|--only|--out|--search) PASS+=("$1" "${2:?$1 needs a value}"); shift ;;
    -h|--help) bench_usage "${BASH_SOURCE[0]}"; exit 0 ;;
    -*) echo "hard.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) [ -z "$FOLDER" ] || { echo "hard.sh: one FOLDER only (see --help)" >&2; exit 2; }; FOLDER=$1 ;;
  esac
  shift
done
[ -n "$FOLDER" ] || { echo "hard.sh: which FOLDER? (see --help)" >&2; exit 2; }
[ -f "$FOLDER/expected.json" ] || { echo "hard.sh: $FOLDER/expected.json is missing" >&2; exit 2; }
bench_need_python hard.sh
if [ $LIST = 1 ]; then exec python3 "$BENCH_DIR/hard_bench.py" "$FOLDER" --list; fi

has() { [[ ",$SOLVERS," == *",$1,"* ]]; }
if [ $BUILD = 1 ] && has cpsolve; then
  echo "== cargo build --release --bin fzn-cpsolve   (in $ROOT)"
  if ! (cd "$ROOT" && cargo build --release --bin fzn-cpsolve); then
    echo "hard.sh: FAILED: cargo build --release --bin fzn-cpsolve" >&2
    exit 1
  fi
fi

SOLVER_PATH=
if has gecode; then SOLVER_PATH=$("$BENCH_DIR/peers/gecodefix.sh" "$BENCH_DIR/.scratch/gecodefix"); fi
if has pumpkin; then SOLVER_PATH=$SOLVER_PATH:$("$BENCH_DIR/peers/pumpkin.sh" "$BENCH_DIR/.scratch/pumpkin"); fi
# A snapshot of cpsolve (binary, mznlib/, configuration) in bench/.scratch/hard/cpsolve/.
SNAP=$BENCH_DIR/.scratch/hard/cpsolve
if has cpsolve; then
  bench_cpsolve_snapshot hard.sh "$ROOT" "$SNAP" 1
  SOLVER_PATH=$SNAP/solvers:$SOLVER_PATH
fi

exec python3 "$BENCH_DIR/hard_bench.py" "$FOLDER" --solver-path "${SOLVER_PATH#:}" --solvers "$SOLVERS" \
  --cpsolve-bin "$SNAP/fzn-cpsolve" ${PASS[@]+"${PASS[@]}"}
