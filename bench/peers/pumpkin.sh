#!/usr/bin/env bash
# Makes Pumpkin 0.5.0 (a lazy clause generation solver, crates.io pumpkin-solver) a MiniZinc
# peer, as the solver `nl.tudelft.algorithmics.pumpkin`.
#
# usage: bench/peers/pumpkin.sh [OUT]      (default: bench/.scratch/pumpkin)
# It prints one line on standard output, the directory to put in MZN_SOLVER_PATH:
#   MZN_SOLVER_PATH=$(bench/peers/pumpkin.sh) minizinc --solver nl.tudelft.algorithmics.pumpkin \
#       -i -t 60000 model.mzn data.dzn
# Everything else goes to standard error. Idempotent: it builds only what is missing.
#
# What it puts in OUT:
# - bin/pumpkin-solver: `cargo install pumpkin-solver --version 0.5.0 --root OUT` (needs
#   crates.io and a Rust toolchain; a few minutes), skipped when the binary there already
#   says 0.5.0. It reads FlatZinc text.
# - mznlib/: Pumpkin's own MiniZinc library, kept in bench/peers/pumpkin/mznlib/ because the
#   crate does not ship it (PROVENANCE there: repository, tag, commit). Native in it:
#   all_different, cumulative with fixed durations, resources and capacity, disjunctive_strict
#   with fixed durations, table (int, and reified), array_int_maximum/minimum, the _imp half
#   reifications, bool_xor; sets become Booleans. Every other global is std's decomposition.
# - bin/fzn-pumpkin: bench/peers/pumpkin/fzn-pumpkin, the wrapper MiniZinc runs. Pumpkin 0.5.0
#   panics on a search annotation over a variable MiniZinc 2.6.4 declared fixed; the wrapper
#   hands it a copy of the FlatZinc without such declarations (its doc says how).
# - solvers/pumpkin.msc: the configuration (the upstream minizinc/pumpkin.msc is not valid JSON
#   and points into Pumpkin's source tree). stdFlags -a -f -r -s -t: pumpkin-solver 0.5.0 has
#   no -i, -n or -p; MiniZinc 2.6.4 turns `minizinc -i` into -a for it.
# Pass -i for optimisation problems: without it pumpkin-solver prints nothing when its time
# limit strikes before it proves the optimum, not even its best solution. -a on an
# optimisation problem prints each improving solution; on a satisfaction problem it asks for
# all solutions, so do not pass it there.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${1:-$HERE/../.scratch/pumpkin}
case "$OUT" in -h|--help) awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "${BASH_SOURCE[0]}"; exit 0 ;; esac
command -v python3 >/dev/null 2>&1 || { echo "pumpkin.sh: python3 is needed (the wrapper)" >&2; exit 1; }

mkdir -p "$OUT/solvers" "$OUT/bin"
OUT=$(cd "$OUT" && pwd)
if ! "$OUT/bin/pumpkin-solver" --help 2>/dev/null | head -1 | grep -qx 'pumpkin-solver 0\.5\.0'; then
  command -v cargo >/dev/null 2>&1 || { echo "pumpkin.sh: cargo is needed (cargo install pumpkin-solver)" >&2; exit 1; }
  echo "== cargo install pumpkin-solver --version 0.5.0 --root $OUT" >&2
  cargo install pumpkin-solver --version 0.5.0 --root "$OUT" >&2
fi
rm -rf "$OUT/mznlib"
mkdir -p "$OUT/mznlib"
cp "$HERE"/pumpkin/mznlib/*.mzn "$OUT/mznlib/"
cp "$HERE/pumpkin/fzn-pumpkin" "$OUT/bin/fzn-pumpkin"
chmod +x "$OUT/bin/fzn-pumpkin"
cat > "$OUT/solvers/pumpkin.msc" <<EOF
{
  "id": "nl.tudelft.algorithmics.pumpkin",
  "name": "Pumpkin",
  "description": "Pumpkin 0.5.0 (crates.io pumpkin-solver), lazy clause generation, through fzn-pumpkin",
  "version": "0.5.0",
  "executable": "$OUT/bin/fzn-pumpkin",
  "mznlib": "$OUT/mznlib",
  "stdFlags": ["-a", "-f", "-r", "-s", "-t"],
  "tags": ["cp", "lcg", "int"],
  "supportsMzn": false,
  "supportsFzn": true,
  "needsSolns2Out": true,
  "needsMznExecutable": false,
  "needsStdlibDir": false,
  "isGUIApplication": false
}
EOF
echo "$OUT/solvers"
