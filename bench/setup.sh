#!/usr/bin/env bash
# Installs and builds everything the benchmarks compare cpsolve with, from the package
# registries only, so that `bench/run-all.sh` runs from a fresh clone.
#
#   Debian packages  gprolog (GNU Prolog), minizinc + flatzinc (MiniZinc with Debian's
#                    Gecode: fzn-gecode and its MiniZinc library), gcc, g++, python3,
#                    python3-venv
#   PyPI             ortools (CP-SAT), in the virtual environment bench/.venv (git-ignored),
#                    at the version pinned in bench/peers/ortools/requirements.txt
#   crates.io        pumpkin-solver 0.5.0 and huub-cli 100.1.0 (lazy clause generation peers
#                    of `hard.sh`), through bench/peers/pumpkin.sh and bench/peers/huub.sh:
#                    `cargo install` into bench/.scratch/pumpkin and bench/.scratch/huub
#   npm              minizinc 4.5.1 (a WebAssembly MiniZinc 2.10 with Chuffed 0.14, run under
#                    Node; it also compiles for Huub), through bench/peers/chuffed.sh into
#                    bench/.scratch/mzn-wasm
#   built            the C queens counter (bench/peers/queens/nqueens.c, gcc -O2) and the
#                    MiniZinc solver configurations of bench/peers/gecodefix.sh and
#                    bench/peers/pumpkin.sh, all under bench/.scratch/ (git-ignored)
#
# Idempotent: what is already there is kept; run it again after a failure. As root it installs
# the missing Debian packages with apt-get; as another user it prints the apt-get line to run
# and sets up the rest. It ends with every tool's version, and exits 1 if a peer is missing.
# cpsolve itself (cargo, the Rust toolchain) is not installed here: see the README.
#
# usage: bench/setup.sh [--no-ortools]
#   --no-ortools   skip the virtual environment (OR-Tools is the CP-SAT peer of `crypt.sh`)
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=bench/lib.sh
source "$BENCH_DIR/lib.sh"

ORTOOLS=1
while [ $# -gt 0 ]; do
  case "$1" in
    --no-ortools) ORTOOLS=0 ;;
    -h|--help) bench_usage "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "setup.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

MISSING=0

# ---------------------------------------------------------------- Debian packages
# The package that provides each command the benchmarks run.
PACKAGES=(gprolog:gplc minizinc:minizinc flatzinc:fzn-gecode gcc:gcc g++:g++ python3:python3 valgrind:valgrind)
need=()
for pair in "${PACKAGES[@]}"; do
  pkg=${pair%%:*} cmd=${pair#*:}
  command -v "$cmd" >/dev/null 2>&1 || need+=("$pkg")
done
# `python3 -m venv` needs ensurepip, which Debian ships apart (python3-venv).
if [ $ORTOOLS = 1 ] && command -v python3 >/dev/null 2>&1 \
   && ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
  need+=(python3-venv)
fi

echo "== Debian packages"
if [ ${#need[@]} = 0 ]; then
  echo "   all present"
elif [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "   apt-get install -y ${need[*]}"
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y "${need[@]}"; then
    echo "   (install failed; refreshing the package lists and retrying)"
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y "${need[@]}"
  fi
else
  echo "!! missing: ${need[*]}"
  echo "!! install them as root:   apt-get install -y ${need[*]}"
  echo "!! (other systems: GNU Prolog 1.4.5, MiniZinc 2.6.4 with Gecode 6.2.0, gcc, python3)"
  MISSING=1
fi

# ---------------------------------------------------------------- OR-Tools
VENV=$BENCH_DIR/.venv
if [ $ORTOOLS = 1 ]; then
  echo "== OR-Tools in $(basename "$BENCH_DIR")/.venv"
  if ! command -v python3 >/dev/null 2>&1; then
    echo "!! python3 is missing: no virtual environment"
    MISSING=1
  else
    if [ ! -x "$VENV/bin/python" ]; then
      echo "   python3 -m venv bench/.venv"
      python3 -m venv "$VENV"
    fi
    # pip's own check, not an import: it also notices a version other than the pinned one.
    if "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
         -r "$BENCH_DIR/peers/ortools/requirements.txt"; then
      echo "   $(grep -v '^#' "$BENCH_DIR/peers/ortools/requirements.txt" | tr '\n' ' ')installed"
    else
      echo "!! pip install -r bench/peers/ortools/requirements.txt failed (is PyPI reachable?)"
      MISSING=1
    fi
  fi
fi

# ---------------------------------------------------------------- builds
echo "== building the peers"
if command -v gcc >/dev/null 2>&1; then
  mkdir -p "$BENCH_DIR/.scratch/peers"
  if gcc -O2 -o "$BENCH_DIR/.scratch/peers/nqueens" "$BENCH_DIR/peers/queens/nqueens.c"; then
    echo "   C queens counter: gcc -O2 bench/peers/queens/nqueens.c -> bench/.scratch/peers/nqueens"
    echo "   (the scripts build their own copies of the peers in bench/.scratch/ too)"
  else
    echo "!! gcc -O2 bench/peers/queens/nqueens.c failed"
    MISSING=1
  fi
else
  MISSING=1
fi
if command -v minizinc >/dev/null 2>&1 && command -v fzn-gecode >/dev/null 2>&1; then
  if solvers=$("$BENCH_DIR/peers/gecodefix.sh"); then
    echo "   Gecode for MiniZinc: bench/peers/gecodefix.sh -> ${solvers#"$BENCH_DIR/"}"
  else
    echo "!! bench/peers/gecodefix.sh failed"
    MISSING=1
  fi
else
  MISSING=1
fi
if command -v cargo >/dev/null 2>&1; then
  if solvers=$("$BENCH_DIR/peers/pumpkin.sh"); then
    echo "   Pumpkin 0.5.0 for MiniZinc: bench/peers/pumpkin.sh -> ${solvers#"$BENCH_DIR/"}"
  else
    echo "!! bench/peers/pumpkin.sh failed"
    MISSING=1
  fi
  if huub=$("$BENCH_DIR/peers/huub.sh"); then
    echo "   Huub 100.1.0: bench/peers/huub.sh -> ${huub#"$BENCH_DIR/"}"
  else
    echo "!! bench/peers/huub.sh failed"
    MISSING=1
  fi
else
  echo "!! no cargo: Pumpkin and Huub (bench/peers/pumpkin.sh, huub.sh, for hard.sh) are not installed"
  MISSING=1
fi
if pkg=$("$BENCH_DIR/peers/chuffed.sh"); then
  echo "   WebAssembly MiniZinc 2.10 with Chuffed 0.14.0: bench/peers/chuffed.sh -> ${pkg#"$BENCH_DIR/"}"
else
  echo "!! bench/peers/chuffed.sh failed (it needs node and npm)"
  MISSING=1
fi

echo "== versions"
bench_versions "$BENCH_DIR"

if [ $MISSING = 1 ]; then
  echo "setup.sh: some peers are missing (see the !! lines above)" >&2
  exit 1
fi
echo "setup.sh: done. Next: bench/run-all.sh --quick (minutes), then bench/run-all.sh"
