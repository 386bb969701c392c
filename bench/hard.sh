#!/usr/bin/env bash
# Benchmark: hard MiniZinc instances under cpsolve, Gecode with its native globals, and the lazy
# clause generation solvers Pumpkin, Chuffed and Huub, plus cpsolve's own command line, one
# solver after the other on each instance (never two at once), with free search. Each answer is
# checked against the folder's expected.json: a wrong one is reported as WRONG and makes the
# script exit 1.
# A benchmark, not a test: CI never runs it. See bench/README.md.
#
# usage: bench/hard.sh FOLDER [--build] [--timeout S] [--only NAME[,NAME...]]
#                      [--solvers cpsolve,gecode,pumpkin,chuffed,huub,cpsolve-cli]
#                      [--search free|model] [--out FILE]
#                      [--list]
#   FOLDER         the instances: one sub-folder per problem and an expected.json, as in
#                  bench/mzn-hard/ (the held-out set kept in the repository)
#   --build        cargo build --release --bin fzn-cpsolve (--bin cpsolve for cpsolve-cli)
#                  first (default: the binaries already in target/release)
#   --timeout S    time limit per instance and solver, in seconds (default 60)
#   --only NAMES   only these folders (rcpsp) or instances (rcpsp/J30_1_2)
#   --solvers L    which solvers, in this order (default: all six)
#                    cpsolve      minizinc --solver org.cpsolve.cpsolve (fzn-cpsolve)
#                    gecode       Gecode 6.2.0 with its native globals (peers/gecodefix.sh)
#                    pumpkin      Pumpkin 0.5.0 (peers/pumpkin.sh)
#                    chuffed      Chuffed 0.14.0 in the WebAssembly MiniZinc 2.10 (peers/chuffed.sh)
#                    huub         Huub 100.1.0, compiled by that wasm MiniZinc (peers/huub.sh)
#                    cpsolve-cli  target/release/cpsolve --format json --timeout S MODEL DATA
#   --search S     free (default): -f for all, each solver may ignore the model's search
#                  annotations; model: no -f, each follows the annotations (cpsolve-cli has
#                  no -f and always does)
#   --out FILE     the results file (default bench/results-hard-DATE.txt; with --only,
#                  bench/.scratch/hard/results-hard-DATE-only.txt)
#   --list         list the instances with their expected answers
# Flags through minizinc: -s --output-mode dzn --output-objective -t MS -f (free search; left
# out with --search model), and -i on an optimisation problem (so the best solution found is
# printed when the limit strikes); chuffed and huub get the same limit, -f and their own flag for
# improving solutions (bench/hard_solvers.py). Peers: bench/peers/*.sh, set up (or installed)
# on the way; the first install of Pumpkin and of Huub runs `cargo install` (minutes), the
# WebAssembly MiniZinc of Chuffed and Huub `npm install`.
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
source "$BENCH_DIR/lib.sh"

BUILD=0
FOLDER=
SOLVERS=cpsolve,gecode,pumpkin,chuffed,huub,cpsolve-cli
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
BINS=()
if has cpsolve; then BINS+=(--bin fzn-cpsolve); fi
if has cpsolve-cli; then BINS+=(--bin cpsolve); fi
if [ $BUILD = 1 ] && [ ${#BINS[@]} -gt 0 ]; then
  echo "== cargo build --release ${BINS[*]}   (in $ROOT)"
  if ! (cd "$ROOT" && cargo build --release "${BINS[@]}"); then
    echo "hard.sh: FAILED: cargo build --release ${BINS[*]}" >&2
    exit 1
  fi
fi

SOLVER_PATH=
if has gecode; then SOLVER_PATH=$("$BENCH_DIR/peers/gecodefix.sh" "$BENCH_DIR/.scratch/gecodefix"); fi
if has pumpkin; then SOLVER_PATH=$SOLVER_PATH:$("$BENCH_DIR/peers/pumpkin.sh" "$BENCH_DIR/.scratch/pumpkin"); fi
WASM_PKG= HUUB_BIN=
if has chuffed || has huub; then WASM_PKG=$("$BENCH_DIR/peers/chuffed.sh" "$BENCH_DIR/.scratch/mzn-wasm"); fi
if has huub; then HUUB_BIN=$("$BENCH_DIR/peers/huub.sh" "$BENCH_DIR/.scratch/huub"); fi
# A snapshot of cpsolve (binary, mznlib/, configuration) in bench/.scratch/hard/cpsolve/.
SNAP=$BENCH_DIR/.scratch/hard/cpsolve
if has cpsolve; then
  bench_cpsolve_snapshot hard.sh "$ROOT" "$SNAP" 1
  SOLVER_PATH=$SNAP/solvers:$SOLVER_PATH
fi
# cpsolve-cli runs a copy too: other people's builds can replace target/release/cpsolve mid-run.
CLI=$BENCH_DIR/.scratch/hard/cpsolve-cli/cpsolve
if has cpsolve-cli; then
  mkdir -p "$(dirname "$CLI")"
  rm -f "$CLI"
  if [ -x "$ROOT/target/release/cpsolve" ]; then
    cp -p "$ROOT/target/release/cpsolve" "$CLI.tmp" && mv "$CLI.tmp" "$CLI"
  else
    echo "!! hard.sh: $ROOT/target/release/cpsolve is missing (use --build): every cpsolve-cli run will be an ERROR" >&2
  fi
fi

exec python3 "$BENCH_DIR/hard_bench.py" "$FOLDER" --solver-path "${SOLVER_PATH#:}" --solvers "$SOLVERS" \
  --cpsolve-bin "$SNAP/fzn-cpsolve" --cpsolve-cli-bin "$CLI" --wasm-pkg "$WASM_PKG" --huub-bin "$HUUB_BIN" \
  ${PASS[@]+"${PASS[@]}"}
