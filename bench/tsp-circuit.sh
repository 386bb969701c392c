#!/usr/bin/env bash
# Benchmark: tsp_circuit (bench/tsp/) proved optimal through the .puz compiler and through
# MiniZinc's flattening (`cpsolve model.mzn`), the same model text, one run after the other,
# alternating. Issue 49 asks the .puz path to take at most 1.2× the .mzn path's time. CPU time
# (user + system, of cpsolve and, for .mzn, of minizinc too) is compared: wall time follows the
# machine's load. Each run's optimum, nodes and propagations are printed; the answer must be 6859.
# A benchmark, not a test: CI never runs it.
#
# usage: bench/tsp-circuit.sh [--build] [--runs N] [--timeout S]
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"
RUNS=3
TIMEOUT=300
BUILD=0
while [ $# -gt 0 ]; do
  case "$1" in
    --build) BUILD=1 ;;
    --runs) RUNS=$2; shift ;;
    --timeout) TIMEOUT=$2; shift ;;
    -h|--help) bench_usage "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
bench_build tsp-circuit.sh "$ROOT" "$BUILD"
BIN="$ROOT/target/release/cpsolve"
OUT=$(mktemp)
trap 'rm -f "$OUT"' EXIT
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '| run | path | optimum | nodes | propagations | CPU s | wall s |\n|---:|---|---:|---:|---:|---:|---:|\n'
declare -A total=([puz]=0 [mzn]=0)
for run in $(seq 1 "$RUNS"); do
  for path in puz mzn; do
    /usr/bin/time -o "$OUT.time" -f '%U %S %e' "$BIN" --stats --timeout "$TIMEOUT" "$ROOT/bench/tsp/tsp_circuit.$path" >"$OUT" 2>&1 || true
    read -r user sys wall <"$OUT.time"
    cpu=$(echo "$user + $sys" | bc)
    # The tour's length: the sum of the last solution's legs (both paths print `d`).
    optimum=$(grep -E '^d = ' "$OUT" | tail -1 | grep -oE '[0-9]+' | paste -sd+ | bc)
    stats=$(grep -E '^stats:' "$OUT" | tail -1)
    nodes=$(echo "$stats" | grep -oE 'nodes [0-9]+' | cut -d' ' -f2)
    props=$(echo "$stats" | grep -oE 'propagations [0-9]+' | cut -d' ' -f2)
    proven=$(grep -qE 'proven|^==========' "$OUT" && echo '' || echo ' (not proved)')
    printf '| %s | .%s | %s%s | %s | %s | %.2f | %.2f |\n' "$run" "$path" "$optimum" "$proven" "${nodes:--}" "${props:--}" "$cpu" "$wall"
    total[$path]=$(echo "${total[$path]} + $cpu" | bc)
  done
done
rm -f "$OUT.time"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "CPU time .puz / .mzn over $RUNS runs: $(echo "scale=2; ${total[puz]} / ${total[mzn]}" | bc)"
