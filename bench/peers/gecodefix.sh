#!/usr/bin/env bash
# Makes MiniZinc + Gecode usable as a peer, as the solver `org.gecode.gecodefix`.
#
# Debian 12 ships MiniZinc 2.6.4 (package minizinc) and Gecode 6.2.0 (package flatzinc:
# fzn-gecode and Gecode's MiniZinc library). That library's inverse.mzn and nvalue.mzn clash
# with MiniZinc 2.6.4's standard library, so every model that includes globals.mzn fails to
# type-check under `--solver gecode`. This script installs both packages if they are missing
# (apt-get, as root), copies Gecode's library without those two files to OUT/gecode, and writes
# a solver configuration for the copy to OUT/solvers/gecodefix.msc.
#
# usage: bench/peers/gecodefix.sh [OUT]      (default: bench/.scratch/gecodefix)
# It prints one line on standard output, the directory to put in MZN_SOLVER_PATH:
#   MZN_SOLVER_PATH=$(bench/peers/gecodefix.sh) minizinc --solver org.gecode.gecodefix model.mzn
# Everything else goes to standard error. Exit 1 if MiniZinc or Gecode cannot be found.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${1:-$HERE/../.scratch/gecodefix}
case "$OUT" in -h|--help) awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "${BASH_SOURCE[0]}"; exit 0 ;; esac

if ! command -v minizinc >/dev/null 2>&1 || ! command -v fzn-gecode >/dev/null 2>&1; then
  echo "== installing the peer: apt-get install -y minizinc flatzinc" >&2
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y minizinc flatzinc >&2; then
    echo "   (install failed; refreshing the package lists and retrying)" >&2
    apt-get update >&2 || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y minizinc flatzinc >&2 || true
  fi
fi
command -v minizinc >/dev/null 2>&1 || { echo "gecodefix.sh: minizinc is missing (apt-get install minizinc flatzinc)" >&2; exit 1; }
command -v python3 >/dev/null 2>&1 || { echo "gecodefix.sh: python3 is needed" >&2; exit 1; }

# MiniZinc's share directory (Debian: /usr/share/minizinc), as MiniZinc itself reports it.
SHARE=$(minizinc --config-dirs | python3 -c 'import json, sys; print(json.load(sys.stdin)["mznStdlibDir"])')
if [ ! -f "$SHARE/solvers/gecode.msc" ] || [ ! -d "$SHARE/gecode" ]; then
  echo "gecodefix.sh: no Gecode in $SHARE (solvers/gecode.msc, gecode/): apt-get install flatzinc" >&2
  exit 1
fi
for f in inverse.mzn nvalue.mzn; do
  [ -f "$SHARE/gecode/$f" ] || echo "gecodefix.sh: note: $SHARE/gecode/$f is absent already (a newer package?)" >&2
done

mkdir -p "$OUT/solvers"
OUT=$(cd "$OUT" && pwd)
rm -rf "$OUT/gecode"
cp -r "$SHARE/gecode" "$OUT/gecode"
rm -f "$OUT/gecode/inverse.mzn" "$OUT/gecode/nvalue.mzn"
python3 - "$SHARE/solvers/gecode.msc" "$OUT" <<'PY'
import json, os, re, sys
src, out = sys.argv[1], sys.argv[2]
text = open(src).read()
# Debian's file has a trailing comma in a list, which JSON does not allow.
config = json.loads(re.sub(r',\s*([\]}])', r'\1', text))
if not os.access(config.get('executable', ''), os.X_OK):
    sys.exit('gecodefix.sh: %s names %s, which is not an executable' % (src, config.get('executable')))
config.update(id='org.gecode.gecodefix', name='GecodeFix', mznlib=out + '/gecode')
with open(out + '/solvers/gecodefix.msc', 'w') as f:
    json.dump(config, f, indent=2)
    f.write('\n')
PY
echo "$OUT/solvers"
