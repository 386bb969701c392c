#!/usr/bin/env bash
# Makes Chuffed 0.14.0 a MiniZinc peer: the npm package `minizinc` 4.5.1 (MPL-2.0) ships a
# WebAssembly build of MiniZinc 2.10.0 with Chuffed 0.14.0, Gecode 6.4.0 and HiGHS linked in,
# and bench/peers/chuffed/mzn-wasm.js runs it under Node. Chuffed has no Debian package and
# no PyPI wheel; this is the one build of it the package registries carry.
#
# usage: bench/peers/chuffed.sh [OUT]      (default: bench/.scratch/mzn-wasm)
# It prints one line on standard output, the folder holding node_modules/minizinc (the --pkg
# of mzn-wasm.js):
#   node bench/peers/chuffed/mzn-wasm.js --pkg "$(bench/peers/chuffed.sh)" -- \
#       --solver chuffed --output-objective --intermediate -f -t 60000 model.mzn data.dzn
# Everything else goes to standard error. Idempotent: `npm install minizinc@4.5.1` runs only
# when OUT does not hold that version. Needs Node >= 18 and npm.
#
# The same WebAssembly MiniZinc compiles models for Huub (bench/peers/huub.sh), since
# Debian's MiniZinc 2.6.4 cannot write the FlatZinc JSON Huub reads.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${1:-$HERE/../.scratch/mzn-wasm}
case "$OUT" in -h|--help) awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "${BASH_SOURCE[0]}"; exit 0 ;; esac
VERSION=4.5.1
command -v node >/dev/null 2>&1 || { echo "chuffed.sh: node (>= 18) is needed" >&2; exit 1; }
command -v npm >/dev/null 2>&1 || { echo "chuffed.sh: npm is needed (npm install minizinc@$VERSION)" >&2; exit 1; }

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
have=$(node -p "try { require('$OUT/node_modules/minizinc/package.json').version } catch (e) { '' }" 2>/dev/null || true)
if [ "$have" != "$VERSION" ]; then
  echo "== npm install minizinc@$VERSION   (in $OUT)" >&2
  # A package.json of OUT's own keeps npm from looking for one in the folders above.
  [ -f "$OUT/package.json" ] || echo '{"private": true}' > "$OUT/package.json"
  (cd "$OUT" && npm install --no-audit --no-fund --no-save "minizinc@$VERSION" >&2)
fi
for f in minizinc-worker.js minizinc.wasm minizinc.data; do
  [ -s "$OUT/node_modules/minizinc/dist/$f" ] || { echo "chuffed.sh: $OUT/node_modules/minizinc/dist/$f is missing" >&2; exit 1; }
done
if ! node "$HERE/chuffed/mzn-wasm.js" --pkg "$OUT" -- --solvers 2>&1 | grep -q 'Chuffed 0\.14\.0'; then
  echo "chuffed.sh: the WebAssembly MiniZinc in $OUT does not list Chuffed 0.14.0" >&2
  exit 1
fi
echo "$OUT"
