# Shared steps of the bench wrappers (sourced, not run): the usage text, the checks, the
# peer install and the build. Each function takes the calling script's name for its messages.

# Prints the script's leading comment block (after the shebang) as its usage text.
bench_usage() {
  awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$1"
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

# `bench_build NAME ROOT BUILD`: builds target/release/cpsolve when BUILD is 1, then
# checks that the binary exists (exit 1 if the build fails or the binary is missing).
bench_build() {
  local name=$1 root=$2 build=$3
  if [ "$build" = 1 ]; then
    echo "== cargo build --release --bin cpsolve   (in $root)"
    if ! (cd "$root" && cargo build --release --bin cpsolve); then
      echo "$name: FAILED: cargo build --release --bin cpsolve" >&2
      echo "  (if someone is mid-edit, retry in a minute, or pass --no-build to time the existing binary)" >&2
      exit 1
    fi
  fi
  if [ ! -x "$root/target/release/cpsolve" ]; then
    echo "$name: $root/target/release/cpsolve is missing (build it, or drop --no-build)" >&2
    exit 1
  fi
}
