//! Checking a solution against the FlatZinc constraints as written.
//!
//! This is the ground truth of the front end, independent of the propagators and of the
//! way constraints were posted: each builtin is evaluated from its definition in the
//! FlatZinc specification on the solution's values. A solution that fails here is a bug in
//! the front end or the engine, never the user's.

use cpsolve_engine::Val;

use crate::model::{Arg, Ref, Written};
use crate::post::power;

/// The first written constraint that the values of the FlatZinc variables (by position)
/// violate, as `name(args)`, if any.
pub fn violated(written: &[Written], value_of: &dyn Fn(usize) -> Val) -> Option<String> {
    written.iter().find(|w| !holds(w, value_of).unwrap_or(false)).map(|w| format!("{}({:?})", w.name, w.args))
}

/// Whether one written constraint holds; `None` when its arguments do not fit its name.
pub fn holds(w: &Written, value_of: &dyn Fn(usize) -> Val) -> Option<bool> {
    let v = |i: usize| -> Option<i128> {
        match w.args.get(i)? {
            Arg::Term(t) => Some(t.value(value_of) as i128),
            _ => None,
        }
    };
    let vs = |i: usize| -> Option<Vec<i128>> {
        match w.args.get(i)? {
            Arg::Array(ts) => Some(ts.iter().map(|t: &Ref| t.value(value_of) as i128).collect()),
            _ => None,
        }
    };
    let set = |i: usize| -> Option<Vec<(Val, Val)>> {
        match w.args.get(i)? {
            Arg::Set(s) => Some(s.clone()),
            Arg::Array(ts) if ts.is_empty() => Some(Vec::new()),
            _ => None,
        }
    };
    let name = w.name.as_str();
    let (base, reif) = if let Some(b) = name.strip_suffix("_reif") {
        (b, Some(true))
    } else if let Some(b) = name.strip_suffix("_imp") {
        (b, Some(false))
    } else {
        (name, None)
    };
    let compare = |rel: &str, a: i128, b: i128| -> Option<bool> {
        Some(match rel {
            "eq" => a == b,
            "ne" => a != b,
            "le" => a <= b,
            "lt" => a < b,
            "ge" => a >= b,
            "gt" => a > b,
            _ => return None,
        })
    };
    let dot = |cs: &[i128], xs: &[i128]| -> Option<i128> {
        (cs.len() == xs.len()).then(|| cs.iter().zip(xs).map(|(a, x)| a * x).sum())
    };
    // The relation itself, and the position of its control variable if reified.
    let (relation, control_at): (Option<bool>, usize) = if let Some(rel) = base.strip_prefix("int_lin_") {
        (compare(rel, dot(&vs(0)?, &vs(1)?)?, v(2)?), 3)
    } else if let Some(rel) = base.strip_prefix("bool_lin_") {
        (compare(rel, dot(&vs(0)?, &vs(1)?)?, v(2)?), 3)
    } else if let Some(rel) =
        base.strip_prefix("int_").or(base.strip_prefix("bool_")).filter(|r| compare(r, 0, 0).is_some())
    {
        (compare(rel, v(0)?, v(1)?), 2)
    } else {
        match base {
            "bool2int" => (Some(v(0)? == v(1)?), 2),
            "bool_not" => (Some(v(0)? != v(1)?), 2),
            "bool_xor" if w.args.len() == 2 => (Some(v(0)? != v(1)?), 2),
            "bool_xor" => return control(reif.or(Some(true)), v(0)? != v(1)?, v(2)?),
            "bool_and" => (Some(v(0)? == 1 && v(1)? == 1), 2),
            "bool_or" => (Some(v(0)? == 1 || v(1)? == 1), 2),
            "array_bool_and" => (Some(vs(0)?.iter().all(|&x| x == 1)), 1),
            "array_bool_or" => (Some(vs(0)?.contains(&1)), 1),
            "array_bool_xor" => (Some(vs(0)?.iter().filter(|&&x| x == 1).count() % 2 == 1), 1),
            "bool_clause" => (Some(vs(0)?.contains(&1) || vs(1)?.contains(&0)), 2),
            "int_plus" => (Some(v(0)? + v(1)? == v(2)?), 3),
            "int_times" => (Some(v(0)? * v(1)? == v(2)?), 3),
            "int_abs" => (Some(v(0)?.abs() == v(1)?), 2),
            "int_min" => (Some(v(0)?.min(v(1)?) == v(2)?), 3),
            "int_max" => (Some(v(0)?.max(v(1)?) == v(2)?), 3),
            "int_div" => (Some(v(1)? != 0 && v(0)? / v(1)? == v(2)?), 3),
            "int_mod" => (Some(v(1)? != 0 && v(0)? % v(1)? == v(2)?), 3),
            "int_pow" => {
                let (p, z) = (power(v(0)? as Val, v(1)? as Val), v(2)?);
                (Some(p.is_some_and(|p| p as i128 == z)), 3)
            }
            "array_int_maximum" => (Some(vs(1)?.iter().max() == Some(&v(0)?)), 2),
            "array_int_minimum" => (Some(vs(1)?.iter().min() == Some(&v(0)?)), 2),
            "set_in" => {
                let x = v(0)?;
                (Some(set(1)?.iter().any(|&(lo, hi)| lo as i128 <= x && x <= hi as i128)), 2)
            }
            "array_int_element" | "array_bool_element" | "array_var_int_element" | "array_var_bool_element" => {
                let (i, xs, z) = (v(0)?, vs(1)?, v(2)?);
                (Some(i >= 1 && (i as usize) <= xs.len() && xs[i as usize - 1] == z), 3)
            }
            "fzn_all_different_int" => {
                let mut xs = vs(0)?;
                xs.sort_unstable();
                (Some(xs.windows(2).all(|p| p[0] != p[1])), 1)
            }
            "cpsolve_table_int" | "cpsolve_table_bool" => {
                let (xs, flat) = (vs(0)?, vs(1)?);
                if xs.is_empty() {
                    return Some(false);
                }
                (Some(flat.chunks(xs.len()).any(|t| t == xs.as_slice())), 2)
            }
            "fzn_cumulative" => (cumulative(&vs(0)?, &vs(1)?, &vs(2)?, v(3)?), 4),
            "fzn_disjunctive" | "fzn_disjunctive_strict" => {
                let (st, du) = (vs(0)?, vs(1)?);
                let strict = base == "fzn_disjunctive_strict";
                let apart = |i: usize, j: usize| {
                    (!strict && (du[i] == 0 || du[j] == 0)) || st[i] + du[i] <= st[j] || st[j] + du[j] <= st[i]
                };
                let n = st.len();
                (Some(du.iter().all(|&d| d >= 0) && (0..n).all(|i| (i + 1..n).all(|j| apart(i, j)))), 2)
            }
            "fzn_diffn" | "fzn_diffn_nonstrict" => (diffn([vs(0)?, vs(1)?, vs(2)?, vs(3)?], base == "fzn_diffn"), 4),
            "cpsolve_circuit" => (Some(circuit(&vs(0)?, v(1)?, false)), 2),
            "cpsolve_subcircuit" => (Some(circuit(&vs(0)?, v(1)?, true)), 2),
            "cpsolve_regular" => (Some(regular(&vs(0)?, v(1)?, v(2)?, &vs(3)?, v(4)?, &set(5)?)?), 6),
            "cpsolve_inverse" => (Some(inverse(&vs(0)?, v(1)?, &vs(2)?, v(3)?)), 4),
            // Rust orders slices as MiniZinc orders arrays: the first difference decides,
            // and a proper prefix is the smaller.
            "cpsolve_lex_less_int" | "cpsolve_lex_less_bool" => (Some(vs(0)? < vs(1)?), 2),
            "cpsolve_lex_lesseq_int" | "cpsolve_lex_lesseq_bool" => (Some(vs(0)? <= vs(1)?), 2),
            "cpsolve_global_cardinality" | "cpsolve_global_cardinality_closed" => {
                let (xs, cover, counts) = (vs(0)?, vs(1)?, vs(2)?);
                if cover.len() != counts.len() {
                    return None;
                }
                let closed = base.ends_with("_closed");
                let counted = cover.iter().zip(&counts).all(|(v, &c)| occurrences(&xs, *v) == c);
                (Some(counted && (!closed || xs.iter().all(|x| cover.contains(x)))), 3)
            }
            "cpsolve_global_cardinality_low_up" | "cpsolve_global_cardinality_low_up_closed" => {
                let (xs, cover, lo, up) = (vs(0)?, vs(1)?, vs(2)?, vs(3)?);
                if cover.len() != lo.len() || cover.len() != up.len() {
                    return None;
                }
                let closed = base.ends_with("_closed");
                let counted = (0..cover.len()).all(|k| (lo[k]..=up[k]).contains(&occurrences(&xs, cover[k])));
                (Some(counted && (!closed || xs.iter().all(|x| cover.contains(x)))), 4)
            }
            _ => return None,
        }
    };
    // These builtins are reified by definition: `bool_and(a, b, r)` is `r ⇔ a ∧ b`.
    let reified_by_definition = matches!(base, "bool_and" | "bool_or" | "array_bool_and" | "array_bool_or");
    let reif = if reified_by_definition { reif.or(Some(true)) } else { reif };
    match reif {
        None => relation,
        Some(full) => control(Some(full), relation?, v(control_at)?),
    }
}

/// `r ⇔ c` (full) or `r → c`.
fn control(full: Option<bool>, c: bool, r: i128) -> Option<bool> {
    let r = r == 1;
    Some(if full? { r == c } else { !r || c })
}

/// MiniZinc's cumulative: at every start time of a task that uses the resource, the tasks
/// running use at most `b` (the load only rises at start times, so these suffice).
fn cumulative(s: &[i128], d: &[i128], r: &[i128], b: i128) -> Option<bool> {
    if s.len() != d.len() || s.len() != r.len() {
        return None;
    }
    if d.iter().chain(r).any(|&v| v < 0) {
        return Some(false);
    }
    let tasks: Vec<usize> = (0..s.len()).filter(|&i| d[i] > 0 && r[i] > 0).collect();
    if tasks.is_empty() {
        return Some(s.is_empty() || b >= 0);
    }
    Some(tasks.iter().all(|&i| {
        let t = s[i];
        tasks.iter().filter(|&&j| s[j] <= t && t < s[j] + d[j]).map(|&j| r[j]).sum::<i128>() <= b
    }))
}

/// Whether no two rectangles (corners `x`, `y`, sides `dx`, `dy`) overlap; with `strict`
/// off, a rectangle with a side of 0 overlaps nothing.
fn diffn([x, y, dx, dy]: [Vec<i128>; 4], strict: bool) -> Option<bool> {
    let n = x.len();
    if y.len() != n || dx.len() != n || dy.len() != n {
        return None;
    }
    let flat = |i: usize| dx[i] == 0 || dy[i] == 0;
    let apart = |i: usize, j: usize| {
        (!strict && (flat(i) || flat(j)))
            || x[i] + dx[i] <= x[j]
            || x[j] + dx[j] <= x[i]
            || y[i] + dy[i] <= y[j]
            || y[j] + dy[j] <= y[i]
    };
    Some((0..n).all(|i| (i + 1..n).all(|j| apart(i, j))))
}

/// Whether `next` (values counted from `offset`) is one circuit through every node, or
/// with `sub`, through the nodes that are not their own successor (none at all allowed).
fn circuit(next: &[i128], offset: i128, sub: bool) -> bool {
    let n = next.len();
    let succ: Option<Vec<usize>> = next.iter().map(|&v| usize::try_from(v - offset).ok().filter(|&j| j < n)).collect();
    let Some(succ) = succ else {
        return false;
    };
    let inside: Vec<usize> = (0..n).filter(|&i| succ[i] != i).collect();
    // MiniZinc's definition: every node of a circuit has another node as successor (so a
    // circuit of one node has no solution), while a subcircuit may leave every node out.
    if !sub && inside.len() != n {
        return false;
    }
    let Some(&start) = inside.first() else {
        return true;
    };
    let mut seen = vec![false; n];
    let mut at = start;
    for _ in 0..inside.len() {
        if seen[at] || succ[at] == at {
            return false;
        }
        seen[at] = true;
        at = succ[at];
    }
    at == start
}

/// MiniZinc's regular: the walk from `q0` along `d` (row-major, `q` states × `s` symbols,
/// 0 for no state) over the values of `x`, each a symbol of `1..=s`, ends in a state of `f`.
/// `None` when `d` is not `q × s`.
fn regular(x: &[i128], q: i128, s: i128, d: &[i128], q0: i128, f: &[(Val, Val)]) -> Option<bool> {
    if q < 0 || s < 0 || d.len() as i128 != q * s {
        return None;
    }
    let mut state = q0;
    for &v in x {
        if !(1..=q).contains(&state) || !(1..=s).contains(&v) {
            return Some(false);
        }
        state = d[((state - 1) * s + v - 1) as usize];
    }
    Some(f.iter().any(|&(lo, hi)| lo as i128 <= state && state <= hi as i128) && (1..=q).contains(&state))
}

/// MiniZinc's `inverse` over positions counted from the offsets: every `f[i]` is a
/// position of `g` with `g[f[i]] = i`, and every `g[j]` a position of `f` with `f[g[j]] = j`.
fn inverse(f: &[i128], f_offset: i128, g: &[i128], g_offset: i128) -> bool {
    let points_back = |from: &[i128], from_offset: i128, to: &[i128], to_offset: i128| {
        from.iter().enumerate().all(|(i, &v)| {
            usize::try_from(v - to_offset).ok().and_then(|j| to.get(j)).is_some_and(|&w| w == i as i128 + from_offset)
        })
    };
    points_back(f, f_offset, g, g_offset) && points_back(g, g_offset, f, f_offset)
}

/// How many of `xs` equal `v`.
fn occurrences(xs: &[i128], v: i128) -> i128 {
    xs.iter().filter(|&&x| x == v).count() as i128
}
