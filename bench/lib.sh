# shellcheck shell=bash
# Shared steps of the bench wrappers (sourced, not run): the usage text, the checks, the
# peer install and the build. Each function takes the calling script's name for its messages.

# Prints the script's leading comment block (after the shebang) as its usage text.
bench_usage() {
  awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$1"
}

# The arguments of a benchmark driven by a Python script: `--no-build` (sets BUILD=0),
# `-h`/`--help` (prints SCRIPT's usage and exits), anything else passed on in PASS.
# usage: bench_args SCRIPT "$@"
bench_args() {
  local script=$1
  shift
  BUILD=1
  PASS=()
  while [ $# -gt 0 ]; do
    case "$1" in
      --no-build) BUILD=0 ;;
      -h|--help) bench_usage "$script"; exit 0 ;;
      *) PASS+=("$1") ;;
    esac
    shift
  done
}

bench_need_python() {
  if ! command -v python3 >/dev/null 2>&1; then
    echo "$1: python3 is needed (statistics and JSON)" >&2
    exit 2
  fi
}

# apt-get install -y gprolog (root), refreshing the package lists once if it fails.
bench_install_gprolog() {
  echo "== installing the peer: apt-get install -y gprolog"
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y gprolog; then
    echo "   (install failed; refreshing the package lists and retrying)"
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y gprolog
  fi
}

# `bench_build NAME ROOT BUILD [BIN]`: builds target/release/BIN (default cpsolve) when BUILD
# is 1, then checks that the binary exists (exit 1 if the build fails or the binary is missing).
bench_build() {
  local name=$1 root=$2 build=$3 bin=${4:-cpsolve}
  if [ "$build" = 1 ]; then
    echo "== cargo build --release --bin $bin   (in $root)"
    if ! (cd "$root" && cargo build --release --bin "$bin"); then
      echo "$name: FAILED: cargo build --release --bin $bin" >&2
      echo "  (if someone is mid-edit, retry in a minute, or pass --no-build to time the existing binary)" >&2
      exit 1
    fi
  fi
  if [ ! -x "$root/target/release/$bin" ]; then
    echo "$name: $root/target/release/$bin is missing (build it, or drop --no-build)" >&2
    exit 1
  fi
}

# `bench_versions BENCH_DIR`: one markdown list line per tool the benchmarks run, with its
# version, or "missing". Shared by setup.sh (its last words) and run-all.sh (the results file).
bench_versions() {
  local bench=$1 root v
  root=$(cd "$bench/.." && pwd)
  first() { local out; out=$("$@" 2>&1) || return 1; grep -m1 . <<<"$out"; }
  v=$(git -C "$root" describe --always --dirty 2>/dev/null || echo "not a git checkout")
  echo "- cpsolve: git $v; $(first rustc --version || echo 'rustc missing')"
  if command -v gplc >/dev/null 2>&1; then echo "- GNU Prolog: $(first gplc --version)"; else echo "- GNU Prolog: missing"; fi
  if command -v minizinc >/dev/null 2>&1; then
    # Captured first: grep -m1 closing the pipe early would fail the pipeline under pipefail.
    v=$(minizinc --version 2>&1 || true)
    echo "- MiniZinc: $(grep -m1 -o 'version [0-9.]*' <<<"$v" || echo unknown)"
  else echo "- MiniZinc: missing"; fi
  if command -v fzn-gecode >/dev/null 2>&1; then
    v=$(minizinc --solvers 2>/dev/null || true)
    echo "- Gecode (fzn-gecode): $(grep -m1 -io 'gecode [0-9.]*' <<<"$v" || echo "version unknown")"
  else echo "- Gecode (fzn-gecode): missing"; fi
  if [ -x "$bench/.scratch/pumpkin/bin/pumpkin-solver" ]; then
    v=$("$bench/.scratch/pumpkin/bin/pumpkin-solver" --help 2>&1 || true)
    echo "- Pumpkin (bench/.scratch/pumpkin): $(grep -m1 -o 'pumpkin-solver [0-9.]*' <<<"$v" || echo "version unknown")"
  else echo "- Pumpkin: not installed (bench/peers/pumpkin.sh)"; fi
  if [ -x "$bench/.scratch/huub/bin/huub" ]; then
    echo "- Huub (bench/.scratch/huub): $(first "$bench/.scratch/huub/bin/huub" --version || echo "version unknown")"
  else echo "- Huub: not installed (bench/peers/huub.sh)"; fi
  if [ -f "$bench/.scratch/mzn-wasm/node_modules/minizinc/package.json" ] && command -v node >/dev/null 2>&1; then
    v=$(node -p "require('$bench/.scratch/mzn-wasm/node_modules/minizinc/package.json').version" 2>/dev/null || echo "?")
    echo "- WebAssembly MiniZinc with Chuffed (npm minizinc, bench/.scratch/mzn-wasm): $v; $(first node --version || echo 'node missing')"
  else echo "- Chuffed: not installed (bench/peers/chuffed.sh)"; fi
  if command -v gcc >/dev/null 2>&1; then echo "- gcc: $(first gcc --version)"; else echo "- gcc: missing"; fi
  echo "- python3: $(first python3 --version || echo missing)"
  if [ -x "$bench/.venv/bin/python" ]; then
    v=$("$bench/.venv/bin/python" -c 'import ortools; print(ortools.__version__)' 2>/dev/null || echo "not installed")
    echo "- OR-Tools (bench/.venv): $v"
  else echo "- OR-Tools: no bench/.venv (bench/setup.sh makes it)"; fi
}

# `bench_cpsolve_snapshot NAME ROOT SNAP WITH_BINARY`: a snapshot of cpsolve as a MiniZinc
# solver in SNAP: a copy of target/release/fzn-cpsolve (when WITH_BINARY is 1), a copy of
# mznlib/ and SNAP/solvers/cpsolve.msc naming both. target/ and mznlib/ are shared, and other
# people's builds and edits could change them in the middle of a run. Warns (does not stop)
# when the binary is missing or older than mznlib/.
bench_cpsolve_snapshot() {
  local name=$1 root=$2 snap=$3 with_binary=$4 bin newer
  bin=$root/target/release/fzn-cpsolve
  rm -rf "$snap"
  mkdir -p "$snap/solvers"
  cp -r "$root/mznlib" "$snap/mznlib"
  if [ "$with_binary" = 1 ]; then
    if [ -x "$bin" ]; then
      cp -p "$bin" "$snap/fzn-cpsolve.tmp" && mv "$snap/fzn-cpsolve.tmp" "$snap/fzn-cpsolve"
      newer=$(find "$root/mznlib" -type f -newer "$bin" | sed "s|^$root/||" | tr '\n' ' ')
      if [ -n "$newer" ]; then
        echo "!! $name: mznlib/ changed after fzn-cpsolve was built (${newer% }):" >&2
        echo "!! the binary may not know every constraint mznlib/ now hands it (use --build)" >&2
      fi
    else
      echo "!! $name: $bin is missing (use --build): every cpsolve run will be an ERROR" >&2
    fi
  fi
  python3 - "$root/solvers/cpsolve.msc" "$snap" <<'PY'
import json, sys
src, snap = sys.argv[1], sys.argv[2]
config = json.load(open(src))
config.update(mznlib=snap + '/mznlib', executable=snap + '/fzn-cpsolve')
with open(snap + '/solvers/cpsolve.msc', 'w') as f:
    json.dump(config, f, indent=2)
    f.write('\n')
PY
}
