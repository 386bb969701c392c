//! Global constraints written as calls, with MiniZinc's names, argument order and meaning,
//! so that a MiniZinc user writes them from memory: `circuit(succ)`, `subcircuit(succ)`,
//! `cumulative(s, d, r, b)`, `disjunctive(s, d)`, `diffn(x, y, dx, dy)`,
//! `increasing(x)`, `decreasing(x)`, `all_equal(x)`, `among(n, x, S)`, `nvalue(n, x)`,
//! `regular(x, Q, S, d, q0, F)`, `inverse(f, g)`, `lex_less(a, b)`, `lex_lesseq(a, b)`,
//! `global_cardinality(x, cover, counts)` and its `_closed` and `_low_up` forms (and
//! MiniZinc's older `distribute(card, value, base)`),
//! `value_precede(s, t, x)`, `bin_packing_load(load, bin, w)`.
//!
//! Each argument is read for what the constraint needs (a list of variables, a constant,
//! a set of constants), and a wrong shape or length is reported at the argument. The
//! engine propagates circuit, subcircuit, cumulative, disjunctive, diffn, regular,
//! inverse, the lexicographic orders and global cardinality natively; the
//! others are decomposed where the decomposition prunes as much (said at each).

use cpsolve_dsl::ast::{Expr, Ident, Span, Spanned};
use cpsolve_dsl::Diagnostic;
use cpsolve_engine::{constraints, Consistency, Rel, Val, VarId};

use super::env::Entity;
use super::errors::{expected, model_error, overflow, Result};
use super::Compiler;

/// The global constraints this module compiles.
/// The most (variable, value) pairs `nvalue` decomposes: 2^18 pairs are half a million
/// Booleans, some tens of megabytes.
const MAX_NVALUE_PAIRS: u64 = 1 << 18;

/// The most nodes of a `circuit` or `subcircuit`: each successor's domain becomes a bitset
/// over the nodes, n² bits in all (2^15 nodes: 128 MB).
const MAX_CIRCUIT_NODES: usize = 1 << 15;

pub(crate) const GLOBALS: &[&str] = &[
    "circuit",
    "subcircuit",
    "cumulative",
    "disjunctive",
    "disjunctive_strict",
    "diffn",
    "diffn_nonstrict",
    "increasing",
    "decreasing",
    "all_equal",
    "among",
    "nvalue",
    "regular",
    "inverse",
    "lex_less",
    "lex_lesseq",
    "lex_greater",
    "lex_greatereq",
    "global_cardinality",
    "global_cardinality_closed",
    "distribute",
    "global_cardinality_low_up",
    "global_cardinality_low_up_closed",
    "value_precede",
    "bin_packing_load",
];

/// A variable of a list argument, with the place it was written.
type Placed = (VarId, Span);

impl Compiler {
    /// Posts the global constraint `function(args)`; `function` is one of [`GLOBALS`].
    pub(crate) fn post_global(&mut self, function: &Ident, args: &[Spanned<Expr>], span: &Span) -> Result<()> {
        let name = function.node.as_str();
        match name {
            "circuit" | "subcircuit" => {
                let [succ] = self.arity(name, args, span, "circuit(succ)")?;
                let offset = self.first_index(succ);
                let vars = self.vars_of(succ)?;
                let succ: Vec<VarId> = vars.iter().map(|v| v.0).collect();
                if succ.len() > MAX_CIRCUIT_NODES {
                    let message = format!(
                        "{name} over {} nodes: each successor needs a domain over all the nodes, \
                         n² bits in all; at most {MAX_CIRCUIT_NODES} nodes",
                        succ.len()
                    );
                    return Err(Diagnostic::new(message, args[0].span.clone()).with_label("too many nodes").into());
                }
                if name == "circuit" {
                    constraints::circuit(&mut self.solver, &succ, offset);
                } else {
                    constraints::subcircuit(&mut self.solver, &succ, offset);
                }
                Ok(())
            }
            "cumulative" => {
                let [s, d, r, b] = self.arity(name, args, span, "cumulative(start, duration, resource, capacity)")?;
                let (starts, durations, resources) = (self.vars_of(s)?, self.vars_of(d)?, self.vars_of(r)?);
                self.same_length(&[(&starts, s), (&durations, d), (&resources, r)], "task")?;
                let capacity = self.var_arg(b)?;
                let r = constraints::cumulative(
                    &mut self.solver,
                    &ids(&starts),
                    &ids(&durations),
                    &ids(&resources),
                    capacity,
                );
                r.map_err(|e| model_error(&e, span.clone()).into())
            }
            "disjunctive" | "disjunctive_strict" => {
                let [s, d] = self.arity(name, args, span, "disjunctive(start, duration)")?;
                let (starts, durations) = (self.vars_of(s)?, self.vars_of(d)?);
                self.same_length(&[(&starts, s), (&durations, d)], "task")?;
                let strict = name == "disjunctive_strict";
                let r = constraints::disjunctive(&mut self.solver, &ids(&starts), &ids(&durations), strict);
                r.map_err(|e| model_error(&e, span.clone()).into())
            }
            "diffn" | "diffn_nonstrict" => {
                let [x, y, dx, dy] = self.arity(name, args, span, "diffn(x, y, dx, dy)")?;
                let lists = [self.vars_of(x)?, self.vars_of(y)?, self.vars_of(dx)?, self.vars_of(dy)?];
                self.same_length(&[(&lists[0], x), (&lists[1], y), (&lists[2], dx), (&lists[3], dy)], "rectangle")?;
                let [x, y, dx, dy] = lists.map(|l| ids(&l));
                let r = constraints::diffn(&mut self.solver, &x, &y, &dx, &dy, name == "diffn");
                r.map_err(|e| model_error(&e, span.clone()).into())
            }
            // Chains of binary relations: bounds propagation along the chain is what a
            // dedicated propagator would do.
            "increasing" | "decreasing" | "all_equal" => {
                let [list] = self.arity(name, args, span, &format!("{name}(x)"))?;
                if name != "all_equal" && self.is_set_list(list) {
                    return self.post_set_chain(list, name == "decreasing", span);
                }
                let xs = self.vars_of(list)?;
                let rel = match name {
                    "increasing" => Rel::Le,
                    "decreasing" => Rel::Ge,
                    _ => Rel::Eq,
                };
                for pair in xs.windows(2) {
                    let r = constraints::linear(&mut self.solver, &[(1, pair[0].0), (-1, pair[1].0)], rel, 0);
                    r.map_err(|e| model_error(&e, pair[1].1.clone()))?;
                }
                Ok(())
            }
            // n = Σ [xᵢ ∈ S]: one reified membership per variable and a sum, which is
            // domain consistent on each membership and bounds consistent on n (as
            // MiniZinc's own decomposition).
            "among" => {
                let [n, list, set] = self.arity(name, args, span, "among(n, x, S)")?;
                let n = self.var_arg(n)?;
                let xs = self.vars_of(list)?;
                let set = self.set_of(set)?;
                let mut terms = vec![(-1, n)];
                for &(x, _) in &xs {
                    let b = self.solver.new_var(0, 1).map_err(|e| model_error(&e, span.clone()))?;
                    constraints::reified_in(&mut self.solver, b, x, &set, false);
                    terms.push((1, b));
                }
                constraints::linear(&mut self.solver, &terms, Rel::Eq, 0)
                    .map_err(|e| model_error(&e, span.clone()).into())
            }
            // n = the number of values taken: a 0/1 "used" per value of the union of the
            // domains, tied to the memberships by clauses, and a sum (weaker than a
            // dedicated nvalue propagator, which also bounds n by matching).
            "nvalue" => {
                let [n, list] = self.arity(name, args, span, "nvalue(n, x)")?;
                let n = self.var_arg(n)?;
                let xs = self.vars_of(list)?;
                // Two Booleans per (variable, value) pair: refuse before building them what
                // would take the machine's memory.
                let pairs = xs.iter().fold(0u64, |sum, &(x, _)| sum.saturating_add(self.solver.size(x)));
                if pairs > MAX_NVALUE_PAIRS {
                    let message = format!(
                        "nvalue over domains with {pairs} values in all: the decomposition needs a Boolean \
                         per (variable, value) pair, at most {MAX_NVALUE_PAIRS}; narrow the domains"
                    );
                    return Err(Diagnostic::new(message, list.span.clone()).with_label("too large").into());
                }
                let mut values: Vec<Val> =
                    xs.iter().flat_map(|&(x, _)| self.solver.values(x).collect::<Vec<_>>()).collect();
                values.sort_unstable();
                values.dedup();
                let new_bool = |cx: &mut Compiler| cx.solver.new_var(0, 1).map_err(|e| model_error(&e, span.clone()));
                let mut used_terms = vec![(-1, n)];
                for v in values {
                    let used = new_bool(self)?;
                    let mut takers = Vec::new();
                    let candidates: Vec<VarId> =
                        xs.iter().map(|p| p.0).filter(|&x| self.solver.contains(x, v)).collect();
                    for x in candidates {
                        let takes = new_bool(self)?;
                        constraints::reified_in(&mut self.solver, takes, x, &[v], false);
                        // takes → used
                        constraints::clause(&mut self.solver, &[used], &[takes]);
                        takers.push(takes);
                    }
                    // used → some x takes v
                    constraints::clause(&mut self.solver, &takers, &[used]);
                    used_terms.push((1, used));
                }
                constraints::linear(&mut self.solver, &used_terms, Rel::Eq, 0)
                    .map_err(|e| model_error(&e, span.clone()).into())
            }
            "regular" => {
                let [list, q, s, d, q0, f] = self.arity(name, args, span, "regular(x, Q, S, d, q0, F)")?;
                let xs = ids(&self.vars_of(list)?);
                let states = self.count_arg(q, "a number of states")?;
                let symbols = self.count_arg(s, "a number of symbols")?;
                let rows = self.matrix_of(d)?;
                if rows.len() != states || rows.iter().any(|row| row.len() != symbols) {
                    let found = rows.first().map_or(0, Vec::len);
                    let message = format!(
                        "the transition table has {} rows of {found}, but the automaton has {states} states \
                         (rows) and {symbols} symbols (columns)",
                        rows.len()
                    );
                    return Err(Diagnostic::new(message, d.span.clone()).with_label("wrong shape").into());
                }
                let mut transition = Vec::with_capacity(states);
                for row in &rows {
                    let mut next = Vec::with_capacity(symbols);
                    for &t in row {
                        match usize::try_from(t) {
                            Ok(t) if t <= states => next.push(t),
                            _ => {
                                let message =
                                    format!("a transition to state {t}: states are 1..{states}, and 0 means none");
                                return Err(Diagnostic::new(message, d.span.clone()).into());
                            }
                        }
                    }
                    transition.push(next);
                }
                let start = self.count_arg(q0, "a start state")?;
                let accepting: Vec<usize> =
                    self.set_of(f)?.into_iter().filter_map(|v| usize::try_from(v).ok()).collect();
                let r = constraints::regular(&mut self.solver, &xs, states, symbols, &transition, start, &accepting);
                r.map_err(|e| model_error(&e, span.clone()).into())
            }
            "inverse" => {
                let [f, g] = self.arity(name, args, span, "inverse(f, g)")?;
                let (f_offset, g_offset) = (self.first_index(f), self.first_index(g));
                let (fs, gs) = (ids(&self.vars_of(f)?), ids(&self.vars_of(g)?));
                if fs.len() != gs.len() {
                    let message =
                        format!("`f` has {} elements and `g` {}: inverse functions need as many", fs.len(), gs.len());
                    return Err(Diagnostic::new(message, span.clone()).into());
                }
                let r = constraints::inverse(&mut self.solver, &fs, f_offset, &gs, g_offset, Consistency::Domain);
                r.map_err(|e| model_error(&e, span.clone()).into())
            }
            "lex_less" | "lex_lesseq" | "lex_greater" | "lex_greatereq" => {
                let [a, b] = self.arity(name, args, span, &format!("{name}(a, b)"))?;
                let (mut a, mut b) = (ids(&self.vars_of(a)?), ids(&self.vars_of(b)?));
                if name.starts_with("lex_greater") {
                    std::mem::swap(&mut a, &mut b);
                }
                if name.ends_with("eq") {
                    constraints::lex_lesseq(&mut self.solver, &a, &b);
                } else {
                    constraints::lex_less(&mut self.solver, &a, &b);
                }
                Ok(())
            }
            "global_cardinality" | "global_cardinality_closed" => {
                let [list, cover, counts] = self.arity(name, args, span, &format!("{name}(x, cover, counts)"))?;
                let xs = ids(&self.vars_of(list)?);
                let cover_values = self.constants_of(cover)?;
                let counts_vars = self.vars_of(counts)?;
                if counts_vars.len() != cover_values.len() {
                    let message = format!(
                        "{} counts for {} values to count: one count per value of `cover`",
                        counts_vars.len(),
                        cover_values.len()
                    );
                    return Err(Diagnostic::new(message, counts.span.clone()).with_label("wrong length").into());
                }
                let closed = name.ends_with("closed");
                let r =
                    constraints::global_cardinality(&mut self.solver, &xs, &cover_values, &ids(&counts_vars), closed);
                r.map_err(|e| model_error(&e, span.clone()).into())
            }
            // MiniZinc's older name and argument order for global cardinality: `card[i]` of
            // the `base` equal `value[i]`. A value given twice has its counts equal.
            "distribute" => {
                let [card, value, base] = self.arity(name, args, span, "distribute(card, value, base)")?;
                let xs = ids(&self.vars_of(base)?);
                let values = self.constants_of(value)?;
                let counts = self.vars_of(card)?;
                if counts.len() != values.len() {
                    let message = format!(
                        "{} counts for {} values to count: one count per value of `value`",
                        counts.len(),
                        values.len()
                    );
                    return Err(Diagnostic::new(message, card.span.clone()).with_label("wrong length").into());
                }
                let mut cover: Vec<Val> = Vec::new();
                let mut cover_counts: Vec<VarId> = Vec::new();
                for (&v, &(count, ref count_span)) in values.iter().zip(&counts) {
                    match cover.iter().position(|&c| c == v) {
                        Some(k) => {
                            let r =
                                constraints::linear(&mut self.solver, &[(1, count), (-1, cover_counts[k])], Rel::Eq, 0);
                            r.map_err(|e| model_error(&e, count_span.clone()))?;
                        }
                        None => {
                            cover.push(v);
                            cover_counts.push(count);
                        }
                    }
                }
                let r = constraints::global_cardinality(&mut self.solver, &xs, &cover, &cover_counts, false);
                r.map_err(|e| model_error(&e, span.clone()).into())
            }
            "global_cardinality_low_up" | "global_cardinality_low_up_closed" => {
                let form = format!("{name}(x, cover, lbound, ubound)");
                let [list, cover, lo, up] = self.arity(name, args, span, &form)?;
                let xs = ids(&self.vars_of(list)?);
                let cover_values = self.constants_of(cover)?;
                let (lows, ups) = (self.constants_of(lo)?, self.constants_of(up)?);
                for (bounds, arg) in [(&lows, lo), (&ups, up)] {
                    if bounds.len() != cover_values.len() {
                        let message = format!(
                            "{} bounds for {} values to count: one per value of `cover`",
                            bounds.len(),
                            cover_values.len()
                        );
                        return Err(Diagnostic::new(message, arg.span.clone()).with_label("wrong length").into());
                    }
                }
                let closed = name.ends_with("closed");
                let r =
                    constraints::global_cardinality_low_up(&mut self.solver, &xs, &cover_values, &lows, &ups, closed);
                r.map_err(|e| model_error(&e, span.clone()).into())
            }
            // For each position: taking t there needs an s somewhere before (MiniZinc's own
            // decomposition: clauses over reified memberships, as strong).
            "value_precede" => {
                let [first, then, list] = self.arity(name, args, span, "value_precede(s, t, x)")?;
                let (s, t) = (self.constant_arg(first)?, self.constant_arg(then)?);
                let xs = ids(&self.vars_of(list)?);
                if s == t {
                    return Ok(());
                }
                let mut earlier_s: Vec<VarId> = Vec::new();
                for &x in &xs {
                    let takes_t = self.solver.new_var(0, 1).map_err(|e| model_error(&e, span.clone()))?;
                    constraints::reified_in(&mut self.solver, takes_t, x, &[t], false);
                    // takes_t → some earlier x took s
                    constraints::clause(&mut self.solver, &earlier_s, &[takes_t]);
                    let takes_s = self.solver.new_var(0, 1).map_err(|e| model_error(&e, span.clone()))?;
                    constraints::reified_in(&mut self.solver, takes_s, x, &[s], false);
                    earlier_s.push(takes_s);
                }
                Ok(())
            }
            // load[b] = Σ w[i] over the items i with bin[i] = b: one reified membership per
            // item and bin, a linear sum per bin, and the total weight on the loads
            // (MiniZinc's decomposition, bounds consistent on the loads).
            "bin_packing_load" => {
                let [load, bin, weight] = self.arity(name, args, span, "bin_packing_load(load, bin, w)")?;
                let first = self.first_index(load);
                let loads = ids(&self.vars_of(load)?);
                let bins = ids(&self.vars_of(bin)?);
                let weights = self.constants_of(weight)?;
                if weights.len() != bins.len() {
                    let message = format!("{} weights for {} items: one weight per item", weights.len(), bins.len());
                    return Err(Diagnostic::new(message, weight.span.clone()).with_label("wrong length").into());
                }
                if let Some(&w) = weights.iter().find(|&&w| w < 0) {
                    return Err(Diagnostic::new(
                        format!("a weight of {w}: weights are at least 0"),
                        weight.span.clone(),
                    )
                    .into());
                }
                let last = first + loads.len() as Val - 1;
                let mut total: Vec<(Val, VarId)> = Vec::new();
                for &b in &bins {
                    self.solver.set_min(b, first);
                    self.solver.set_max(b, last);
                }
                for (k, &l) in loads.iter().enumerate() {
                    let mut terms = vec![(-1, l)];
                    for (&b, &w) in bins.iter().zip(&weights) {
                        let inside = self.solver.new_var(0, 1).map_err(|e| model_error(&e, span.clone()))?;
                        constraints::reified_in(&mut self.solver, inside, b, &[first + k as Val], false);
                        terms.push((w, inside));
                    }
                    constraints::linear(&mut self.solver, &terms, Rel::Eq, 0)
                        .map_err(|e| model_error(&e, span.clone()))?;
                    total.push((1, l));
                }
                let sum = weights
                    .iter()
                    .try_fold(0 as Val, |a, &w| a.checked_add(w))
                    .ok_or_else(|| overflow(weight.span.clone()))?;
                constraints::linear(&mut self.solver, &total, Rel::Eq, sum)
                    .map_err(|e| model_error(&e, span.clone()).into())
            }
            _ => unreachable!("`{name}` is not in GLOBALS"),
        }
    }

    /// The arguments of a call that takes exactly `N`, or an error showing the form.
    fn arity<'a, const N: usize>(
        &self,
        name: &str,
        args: &'a [Spanned<Expr>],
        span: &Span,
        form: &str,
    ) -> Result<&'a [Spanned<Expr>; N]> {
        args.try_into().map_err(|_| {
            let plural = if N == 1 { "" } else { "s" };
            Diagnostic::new(format!("`{name}` takes {N} argument{plural}, not {}", args.len()), span.clone())
                .with_note(format!("the form is `{form}`"))
                .into()
        })
    }

    /// The variables of a list argument (an element that is an expression gets a new
    /// variable equal to it; a constant, a fixed variable).
    fn vars_of(&mut self, list: &Spanned<Expr>) -> Result<Vec<Placed>> {
        if !self.is_list(list) {
            return Err(expected("a list", "a single value", list.span.clone()).into());
        }
        let mut out = Vec::new();
        for (lin, span) in self.list_elements(list)? {
            out.push((self.var_of(&lin, &span)?, span));
        }
        Ok(out)
    }

    /// A single integer argument as a variable (fixed if it is a constant).
    fn var_arg(&mut self, arg: &Spanned<Expr>) -> Result<VarId> {
        if self.is_list(arg) {
            return Err(expected("a single value", "a list", arg.span.clone()).into());
        }
        let lin = self.linearize(arg)?;
        self.var_of(&lin, &arg.span)
    }

    /// A set of constants: `{1, 3, 5}`, `lo..hi`, a named set, or a list of constants.
    pub(crate) fn set_of(&mut self, arg: &Spanned<Expr>) -> Result<Vec<Val>> {
        if self.is_set_expr(arg) {
            return self.const_set(arg);
        }
        if !self.is_list(arg) {
            return Err(expected("a set such as `{1, 2}` or `1..3`", "a single value", arg.span.clone()).into());
        }
        let mut values = Vec::new();
        for (lin, span) in self.list_elements(arg)? {
            values.push(self.constant_of(&lin, &span)??);
        }
        values.sort_unstable();
        values.dedup();
        Ok(values)
    }

    /// A constant argument that counts something (at least 0).
    fn count_arg(&mut self, arg: &Spanned<Expr>, what: &str) -> Result<usize> {
        let v = self.constant_arg(arg)?;
        usize::try_from(v)
            .map_err(|_| Diagnostic::new(format!("expected {what} (at least 0), found {v}"), arg.span.clone()).into())
    }

    /// A table of constants: any constant expression with two dimensions (a 2-d `let`
    /// array, a list of lists, a comprehension of comprehensions), as rows.
    pub(crate) fn matrix_of(&mut self, arg: &Spanned<Expr>) -> Result<Vec<Vec<Val>>> {
        if !self.is_list(arg) {
            return Err(expected("a table of constants (a list of lists)", "a single value", arg.span.clone()).into());
        }
        let (shape, elems) = self.nested_list(arg)?;
        if elems.is_empty() && shape.dims.len() == 1 {
            // `[]`: a table without rows.
            return Ok(Vec::new());
        }
        if shape.dims.len() != 2 {
            let found =
                format!("an array of {} dimension{}", shape.dims.len(), if shape.dims.len() == 1 { "" } else { "s" });
            return Err(expected("a table of constants (a list of lists)", &found, arg.span.clone()).into());
        }
        let mut values = Vec::with_capacity(elems.len());
        for lin in &elems {
            values.push(self.constant_of(lin, &arg.span)??);
        }
        let width = usize::try_from(shape.extent(1)).unwrap_or(0);
        Ok(if width == 0 {
            (0..shape.extent(0)).map(|_| Vec::new()).collect()
        } else {
            values.chunks(width).map(<[Val]>::to_vec).collect()
        })
    }

    /// An argument that must be a constant.
    pub(crate) fn constant_arg(&mut self, arg: &Spanned<Expr>) -> Result<Val> {
        let lin = self.linearize(arg)?;
        Ok(self.constant_of(&lin, &arg.span)??)
    }

    /// The first index of an array argument: its declared lower bound for a named array,
    /// 1 for a list written in place (as in MiniZinc).
    pub(crate) fn first_index(&self, arg: &Spanned<Expr>) -> Val {
        match &arg.node {
            Expr::Name(name) => match self.env.lookup(name) {
                Some(Entity::Array(id)) => self.env.arrays[id].shape.dims.first().map_or(1, |d| d.0),
                _ => 1,
            },
            _ => 1,
        }
    }

    /// An error unless the lists have one length; `what` names their elements.
    fn same_length(&self, lists: &[(&Vec<Placed>, &Spanned<Expr>)], what: &str) -> Result<()> {
        let n = lists[0].0.len();
        if let Some((list, arg)) = lists.iter().find(|(list, _)| list.len() != n) {
            let message = format!("this list has {} elements, but the first has {n}: one per {what}", list.len());
            return Err(Diagnostic::new(message, arg.span.clone()).with_label("wrong length").into());
        }
        Ok(())
    }
}

fn ids(placed: &[Placed]) -> Vec<VarId> {
    placed.iter().map(|p| p.0).collect()
}
