#!/usr/bin/env bash
# Makes MiniZinc + Gecode a fair peer, as the solver `org.gecode.gecodefix`: Gecode gets its own
# propagators for the globals it has, not MiniZinc's decompositions.
#
# Debian 12 ships MiniZinc 2.6.4 (package minizinc) and Gecode 6.2.0 (package flatzinc:
# fzn-gecode and Gecode's MiniZinc library). Two things go wrong with them as they come:
# 1. Gecode's inverse.mzn and nvalue.mzn clash with MiniZinc 2.6.4's standard library (its
#    overloads with opt arguments), so every model that includes globals.mzn fails to type-check
#    under `--solver gecode`. The copy drops them (their natives come back as fzn_ files, below).
# 2. Gecode 6.2.0's library is old-style: it overrides all_different_int.mzn, table_int.mzn, ...,
#    but MiniZinc 2.6.4's std calls fzn_all_different_int, fzn_table_int, ... directly. So the
#    FlatZinc handed to Gecode held std's decompositions (all_different as pairwise int_ne,
#    table as clauses, inverse as element constraints, lex as Boolean chains, ...). The copy
#    gets one fzn_NAME.mzn per global, written below, that redirects the fzn_ predicate to the
#    constraint fzn-gecode 6.2.0 registers (gecode/flatzinc/registry.cpp at release-6.2.0):
#      all_different_int -> all_different_int     all_equal_int -> all_equal_int
#      table_int (+ _reif) -> gecode_table_int(_reif)   table_bool -> gecode_table_bool
#      inverse -> inverse_offsets                  nvalue -> nvalue
#      lex_less/lex_lesseq (int, bool) -> array_int_lt/lq, array_bool_lt/lq
#      increasing/decreasing (int, bool) -> increasing_int, ..., decreasing_bool
#      member (int, bool) -> member_int/bool; member_*_reif -> gecode_member_*_reif
#      arg_max/arg_min (int, bool) -> gecode_maximum/minimum_arg_*_offset
#      count_eq (+ _reif), exactly_int -> count/count_reif   among -> among
#      at_least_int/at_most_int -> at_least_int/at_most_int  value_precede_int -> gecode_precede
#      global_cardinality(_closed) -> gecode_global_cardinality(_closed)
#      global_cardinality_low_up(_closed) -> Gecode's global_cardinality_low_up(_closed)
#      alldifferent_except_0 -> Gecode's form (a closed gcc, 0 unbounded)
#      disjunctive_strict with fixed durations -> gecode_schedule_unary (Debian's own
#        disjunctive_strict.mzn, cumulative with capacity 1, is dropped: std's calls the fzn_
#        file); disjunctive too, when every duration is positive
#      circuit, cumulative, diffn, regular, bin_packing(_capa, _load), sort: native already
#        through Debian's old-style files when a model names them; redirected for std's fzn_
#        route too.
#    Set, float and the other globals are left as they come. (The facts of this mapping come
#    from a peer study on this machine; the text here is ours.)
#
# Checked 2026-11-28 with this script (see notes/learning-bench.md):
# - 14 one-global models (all_different, table, inverse, lex_less, lex_lesseq, increasing,
#   count, global_cardinality, disjunctive, value_precede, member, nvalue, among, arg_max)
#   compiled with `minizinc --solver org.gecode.gecodefix -c`: each .fzn holds the native
#   constraint above (all_different_int, gecode_table_int, inverse_offsets, array_int_lt,
#   array_bool_lq, increasing_int, count, gecode_global_cardinality, gecode_schedule_unary,
#   gecode_precede, member_int, nvalue, among, gecode_maximum_arg_int_offset) and no
#   decomposition; before, 10 of the 14 got std's decomposition (pairwise int_lin_ne,
#   element constraints, Boolean chains) and disjunctive got cumulatives;
# - the same 14 models with -a: the same number of solutions as with the previous version of
#   this script (git history), i.e. as with the decompositions.
#
# usage: bench/peers/gecodefix.sh [OUT]      (default: bench/.scratch/gecodefix)
# It prints one line on standard output, the directory to put in MZN_SOLVER_PATH:
#   MZN_SOLVER_PATH=$(bench/peers/gecodefix.sh) minizinc --solver org.gecode.gecodefix model.mzn
# Everything else goes to standard error. Exit 1 if MiniZinc or Gecode cannot be found.
# Idempotent: OUT/gecode is rebuilt from Debian's library on every call.
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
for f in inverse.mzn nvalue.mzn disjunctive_strict.mzn; do
  [ -f "$SHARE/gecode/$f" ] || echo "gecodefix.sh: note: $SHARE/gecode/$f is absent already (a newer package?)" >&2
done

mkdir -p "$OUT/solvers"
OUT=$(cd "$OUT" && pwd)
LIB=$OUT/gecode
rm -rf "$LIB"
cp -r "$SHARE/gecode" "$LIB"
rm -f "$LIB/inverse.mzn" "$LIB/nvalue.mzn" "$LIB/disjunctive_strict.mzn"

# redirect NAME: writes LIB/fzn_NAME.mzn from standard input. A file of that name in the solver
# library hides std's, which holds the decomposition.
redirect() { cat > "$LIB/fzn_$1.mzn"; }

redirect all_different_int <<'EOF'
include "all_different_int.mzn";
predicate fzn_all_different_int(array[int] of var int: x) = all_different_int(x);
EOF
redirect all_equal_int <<'EOF'
include "all_equal_int.mzn";
predicate fzn_all_equal_int(array[int] of var int: x) = all_equal_int(x);
EOF
# Gecode takes the table flat, row after row.
redirect table_int <<'EOF'
include "table_int.mzn";
predicate fzn_table_int(array[int] of var int: x, array[int, int] of int: t) =
    gecode_table_int(x, array1d(t));
EOF
redirect table_int_reif <<'EOF'
include "table_int.mzn";
predicate fzn_table_int_reif(array[int] of var int: x, array[int, int] of int: t, var bool: b) =
    gecode_table_int_reif(x, array1d(t), b);
EOF
redirect table_bool <<'EOF'
predicate gecode_table_bool(array[int] of var bool: x, array[int] of bool: t);
predicate fzn_table_bool(array[int] of var bool: x, array[int, int] of bool: t) =
    gecode_table_bool(x, array1d(t));
EOF
# inverse_offsets(f, offset of f's values, invf, offset of invf's values): f's values index invf.
redirect inverse <<'EOF'
predicate inverse_offsets(array[int] of var int: f, int: foff, array[int] of var int: invf, int: invfoff);
predicate fzn_inverse(array[int] of var int: f, array[int] of var int: invf) =
    inverse_offsets(f, min(index_set(invf)), invf, min(index_set(f)));
EOF
redirect nvalue <<'EOF'
predicate nvalue(var int: n, array[int] of var int: x);
predicate fzn_nvalue(var int: n, array[int] of var int: x) = nvalue(n, x);
EOF
for type in int bool; do
  redirect "lex_less_$type" <<EOF
include "lex_less_$type.mzn";
predicate fzn_lex_less_$type(array[int] of var $type: x, array[int] of var $type: y) = array_${type}_lt(x, y);
EOF
  redirect "lex_lesseq_$type" <<EOF
include "lex_lesseq_$type.mzn";
predicate fzn_lex_lesseq_$type(array[int] of var $type: x, array[int] of var $type: y) = array_${type}_lq(x, y);
EOF
  for order in increasing decreasing; do
    redirect "${order}_$type" <<EOF
include "${order}_$type.mzn";
predicate fzn_${order}_$type(array[int] of var $type: x) = ${order}_$type(x);
EOF
  done
  # Declared here rather than by including Gecode's member_$type.mzn: that include would pull in
  # std's member_$type.mzn.deprecated.mzn too, whose declaration fzn-gecode cannot parse.
  redirect "member_$type" <<EOF
predicate member_$type(array[int] of var $type: x, var $type: y);
predicate fzn_member_$type(array[int] of var $type: x, var $type: y) = member_$type(x, y);
EOF
  redirect "member_${type}_reif" <<EOF
predicate gecode_member_${type}_reif(array[int] of var $type: x, var $type: y, var bool: b);
predicate fzn_member_${type}_reif(array[int] of var $type: x, var $type: y, var bool: b) =
    gecode_member_${type}_reif(x, y, b);
EOF
  for m in max min; do
    redirect "arg_${m}_$type" <<EOF
include "arg_${m}_$type.mzn";
predicate fzn_${m}imum_arg_$type(array[int] of var $type: x, var int: z) =
    gecode_${m}imum_arg_${type}_offset(x, min(index_set(x)), z);
EOF
  done
done
redirect count_eq <<'EOF'
include "count.mzn";
predicate fzn_count_eq(array[int] of var int: x, var int: y, var int: c) = count(x, y, c);
EOF
redirect count_eq_reif <<'EOF'
include "count.mzn";
predicate fzn_count_eq_reif(array[int] of var int: x, var int: y, var int: c, var bool: b) =
    count_reif(x, y, c, b);
EOF
redirect exactly_int <<'EOF'
include "count.mzn";
predicate fzn_exactly_int(int: n, array[int] of var int: x, int: v) = count(x, v, n);
EOF
redirect among <<'EOF'
include "among.mzn";
predicate fzn_among(var int: n, array[int] of var int: x, set of int: v) = among(n, x, v);
EOF
for bound in least most; do
  redirect "at_${bound}_int" <<EOF
include "at_${bound}_int.mzn";
predicate fzn_at_${bound}_int(int: n, array[int] of var int: x, int: v) = at_${bound}_int(n, x, v);
EOF
done
redirect value_precede_int <<'EOF'
include "value_precede_int.mzn";
predicate fzn_value_precede_int(int: s, int: t, array[int] of var int: x) = gecode_precede(x, s, t);
EOF
redirect global_cardinality <<'EOF'
include "global_cardinality.mzn";
predicate fzn_global_cardinality(array[int] of var int: x, array[int] of int: cover,
                                 array[int] of var int: counts) =
    gecode_global_cardinality(x, cover, counts);
EOF
redirect global_cardinality_closed <<'EOF'
include "global_cardinality_closed.mzn";
predicate fzn_global_cardinality_closed(array[int] of var int: x, array[int] of int: cover,
                                        array[int] of var int: counts) =
    gecode_global_cardinality_closed(x, cover, counts);
EOF
for closed in '' _closed; do
  redirect "global_cardinality_low_up$closed" <<EOF
include "global_cardinality_low_up$closed.mzn";
predicate fzn_global_cardinality_low_up$closed(array[int] of var int: x, array[int] of int: cover,
        array[int] of int: lbound, array[int] of int: ubound) =
    global_cardinality_low_up$closed(x, cover, lbound, ubound);
EOF
done
redirect alldifferent_except_0 <<'EOF'
include "alldifferent_except_0.mzn";
predicate fzn_alldifferent_except_0(array[int] of var int: vs) = alldifferent_except_0(vs);
EOF
# Gecode's unary resource needs fixed durations; with variable ones this is std's decomposition.
redirect disjunctive_strict <<'EOF'
predicate gecode_schedule_unary(array[int] of var int: x, array[int] of int: p);
predicate fzn_disjunctive_strict(array[int] of var int: s, array[int] of var int: d) =
    forall (i in index_set(d)) (d[i] >= 0) /\
    if forall (i in index_set(d)) (is_fixed(d[i])) then
        gecode_schedule_unary(array1d(s), [fix(d[i]) | i in index_set(d)])
    else
        forall (i, j in index_set(d) where i < j) (s[i] + d[i] <= s[j] \/ s[j] + d[j] <= s[i])
    endif;
EOF
redirect circuit <<'EOF'
include "circuit.mzn";
predicate fzn_circuit(array[int] of var int: x) = circuit(x);
EOF
redirect cumulative <<'EOF'
include "cumulative.mzn";
predicate fzn_cumulative(array[int] of var int: s, array[int] of var int: d,
                         array[int] of var int: r, var int: b) = cumulative(s, d, r, b);
EOF
redirect diffn <<'EOF'
include "diffn.mzn";
predicate fzn_diffn(array[int] of var int: x, array[int] of var int: y,
                    array[int] of var int: dx, array[int] of var int: dy) = diffn(x, y, dx, dy);
EOF
redirect regular <<'EOF'
include "regular.mzn";
predicate fzn_regular(array[int] of var int: x, int: Q, int: S, array[int, int] of int: d,
                      int: q0, set of int: F) = regular(x, Q, S, d, q0, F);
EOF
redirect bin_packing <<'EOF'
include "bin_packing.mzn";
predicate fzn_bin_packing(int: c, array[int] of var int: bin, array[int] of int: w) =
    bin_packing(c, bin, w);
EOF
redirect bin_packing_capa <<'EOF'
include "bin_packing_capa.mzn";
predicate fzn_bin_packing_capa(array[int] of int: c, array[int] of var int: bin, array[int] of int: w) =
    bin_packing_capa(c, bin, w);
EOF
redirect bin_packing_load <<'EOF'
include "bin_packing_load.mzn";
predicate fzn_bin_packing_load(array[int] of var int: load, array[int] of var int: bin,
                               array[int] of int: w) = bin_packing_load(load, bin, w);
EOF
redirect sort <<'EOF'
include "sort.mzn";
predicate fzn_sort(array[int] of var int: x, array[int] of var int: y) = sort(x, y);
EOF

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
