#!/usr/bin/env bash
# Makes Huub 100.1.0 (a lazy clause generation solver in Rust, crates.io huub-cli, MPL-2.0) a
# peer of bench/hard.sh, through the wrapper bench/peers/huub/mzn-huub.
#
# usage: bench/peers/huub.sh [OUT]      (default: bench/.scratch/huub)
# It prints one line on standard output, the huub binary:
#   bench/peers/huub/mzn-huub --pkg "$(bench/peers/chuffed.sh)" --huub "$(bench/peers/huub.sh)" \
#       -f -i -t 60000 model.mzn data.dzn
# Everything else goes to standard error. Idempotent: it builds only what is missing.
#
# What it puts in OUT:
# - bin/huub: `cargo install --locked huub-cli --version 100.1.0 --root OUT` under `nice -n 19`
#   (needs crates.io and a Rust toolchain; 10 to 20 minutes on a loaded machine), skipped when
#   the binary there already says 100.1.0. --locked: without the crate's own Cargo.lock, cargo
#   picks flatzinc-serde 0.5.1 (with rangelist 0.5) while huub 100.1.0 needs rangelist 0.4, and
#   the build fails with E0308.
# - target/: cargo's build folder (kept, so a rebuild is quick).
# Huub reads FlatZinc JSON only: mzn-huub compiles each model with the WebAssembly MiniZinc
# 2.10 of bench/peers/chuffed.sh against Huub's library, vendored in bench/peers/huub/mznlib/
# (the crate does not ship it; mznlib/SOURCE says where each file comes from and what was left
# out, LICENSE-MPL-2.0 is its licence).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${1:-$HERE/../.scratch/huub}
case "$OUT" in -h|--help) awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "${BASH_SOURCE[0]}"; exit 0 ;; esac
VERSION=100.1.0

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
if ! "$OUT/bin/huub" --version 2>/dev/null | grep -q "${VERSION//./\\.}"; then
  command -v cargo >/dev/null 2>&1 || { echo "huub.sh: cargo is needed (cargo install huub-cli)" >&2; exit 1; }
  echo "== nice -n 19 cargo install --locked huub-cli --version $VERSION --root $OUT" >&2
  CARGO_TARGET_DIR="$OUT/target" nice -n 19 cargo install --locked huub-cli --version "$VERSION" --root "$OUT" >&2
fi
echo "$OUT/bin/huub"
