//! Learning from failures never changes an answer: on random small models mixing the
//! engine's constraints, the search with learning lists exactly the solutions of the search
//! without, proves the same optimum, and every nogood it learned is violated by no solution
//! (a nogood must follow from the constraints). The explanations cited during analysis are
//! checked to have held when cited, and at every fixpoint no kept nogood is left failed or
//! unit (the database missed nothing; `check_solutions` turns both checks on).

mod common;

use std::ops::ControlFlow;

use common::{VAL_ORDERS, VAR_ORDERS};
use cpsolve_engine::constraints::{
    abs, all_different, all_different_shifted, binary_function, circuit, clause, cumulative, diffn, div_by_constant,
    element, extremum, global_cardinality, inverse, lex_less, lex_lesseq, line_counts, linear, linear_eq_domain,
    not_equal, parity, parity_elimination, regular, reified_equal, reified_in, reified_linear, subcircuit, table,
    times,
};
use cpsolve_engine::{
    propagators::CountedLine, ActivityOver, ActivitySearch, Branching, Consistency, Literal, Probe, Rel, SearchConfig,
    Sense, Solver, Val, VarId, VarOrder,
};
use proptest::prelude::*;

const RELS: [Rel; 6] = [Rel::Eq, Rel::Ne, Rel::Le, Rel::Lt, Rel::Ge, Rel::Gt];

const CONSISTENCIES: [Consistency; 3] = [Consistency::Value, Consistency::Bounds, Consistency::Domain];

/// A relation over the model's variables: terms (coefficient, variable index), a relation
/// (index into `RELS`) and a constant.
type Relation = (Vec<(i64, usize)>, usize, i64);

/// One constraint over the model's variables, by index.
#[derive(Debug, Clone)]
enum Con {
    Linear(Vec<(i64, usize)>, usize, i64),
    NotEqual(usize, usize, i64),
    AllDifferent(Vec<usize>),
    /// `xᵢ + oᵢ` pairwise different, at a consistency of `CONSISTENCIES`.
    AllDifferentShifted(Vec<(usize, i64)>, usize),
    /// `xᵢ`, `xᵢ + i`, `xᵢ − i` each pairwise different (queens).
    Queens(Vec<usize>),
    Element(usize, Vec<usize>, usize),
    Times(usize, usize, usize),
    Abs(usize, usize),
    Max(usize, Vec<usize>, bool),
    Table(Vec<usize>, Vec<Vec<Val>>),
    Reified(usize, Vec<(i64, usize)>, usize, i64),
    /// `count(bᵢ) = x` where each `bᵢ ⇔ relation ᵢ` is a new 0/1 variable: conditions used
    /// as numbers, as FlatZinc flattens `count`, `sum(bool2int(...))` and disjunctions.
    CountReified(Vec<Relation>, usize),
    /// `count(bᵢ) = x` where each `bᵢ ⇔ xᵢ = yᵢ` (domain-consistent reified equality).
    CountEqual(Vec<(usize, usize)>, usize),
    /// `count(bᵢ) = x` where each `bᵢ ⇔ xᵢ ∈ Sᵢ` or, half reified, `bᵢ → xᵢ ∈ Sᵢ`.
    CountIn(Vec<(usize, Vec<Val>, bool)>, usize),
    /// Tasks (start, duration, use) with durations and uses fixed, capacity a variable.
    Cumulative(Vec<(usize, i64, i64)>, usize),
    /// Tasks (start, duration) that never overlap, the durations fixed.
    Disjunctive(Vec<(usize, i64)>),
    /// Tasks (start, duration) that never overlap, the durations variables of the model.
    DisjunctiveVar(Vec<(usize, usize)>),
    /// A word accepted by an automaton: positions, states, symbols, transitions (0: none),
    /// accepting states.
    Regular(Vec<usize>, usize, usize, Vec<Vec<usize>>, Vec<usize>),
    /// Rectangles (x, y, width, height) that do not overlap, the sides fixed; strict or not.
    Diffn(Vec<(usize, usize, i64, i64)>, bool),
    /// The same with the sides variables of the model (0 among their values).
    DiffnVar(Vec<(usize, usize, usize, usize)>, bool),
    /// Some variable of the first list is 1 or some of the second is 0.
    Clause(Vec<usize>, Vec<usize>),
    /// Successors forming one circuit through their positions (nodes from the offset).
    Circuit(Vec<usize>, i64),
    /// Parity equations (variables, odd) eliminated together, and each posted alone as
    /// well unless the flag says the elimination alone (then it explains everything).
    Parities(Vec<(Vec<usize>, bool)>, bool),
    /// Capped counts of ones on lines of 0/1 variables (a variable listed twice weighs
    /// two): (variables, cap, exact).
    Lines(Vec<(Vec<usize>, i64, bool)>),
    /// `x ≤lex y` (or `<lex` when strict) over vectors of possibly different lengths.
    Lex(Vec<usize>, Vec<usize>, bool),
    /// `counts[k]` variables of `x` equal `cover[k]`; closed or not.
    Cardinality(Vec<usize>, Vec<Val>, Vec<usize>, bool),
    /// The same with the counts between bounds: (value, low, high) per value.
    CardinalityLowUp(Vec<usize>, Vec<(Val, Val, Val)>, bool),
    /// `f` and `g` inverse to each other, each of the same length, positions from 0 or 1.
    Inverse(Vec<usize>, Vec<usize>, i64),
    /// The successors not their own forming one circuit, or none.
    Subcircuit(Vec<usize>, i64),
    /// `Σ aᵢ·xᵢ = c` by dynamic programming (domain consistent).
    LinearDomain(Vec<(i64, usize)>, i64),
    /// `z = x mod y` (`false`) or `z = x div y` (`true`): support search over pairs.
    DivMod(usize, usize, usize, bool),
    /// `a = |w|` (by bounds: `w` too wide to tabulate) and `q = w div 7`, where
    /// `w = 25·x − 40`, `a ≤ 25·z + 10` and `q ≤ 3·y + 2` tie them to the model.
    Wide(usize, usize, usize),
}

/// Which constraints a random model is made of.
#[derive(Debug, Clone, Copy)]
enum Mix {
    /// Every kind.
    General,
    /// Mostly those with precise explanations beyond linear ones (see [`focused`]).
    Reasons,
    /// Scheduling: resources over wider start windows, tied by precedences.
    Tasks,
    /// Words: automata over few symbols, tied by `≠`, sums and all-different.
    Words,
    /// 0/1 variables under parity systems, clauses and sums.
    Parities,
    /// Successors under circuits, tied by `≠` and sums.
    Routes,
    /// Products and extrema (`x · y = z`, `max`, `min`), tied by sums and `≠`, over
    /// values mostly non-negative, where their explanations cite single corners.
    Arithmetic,
    /// Global constraints explained by their own rules (lex, global cardinality, inverse,
    /// subcircuit, the domain-consistent sum, division and remainder, the bounds of `abs`
    /// and division on wide domains), tied by `≠` and sums.
    Globals,
    /// Global cardinality, closed or not, with `≠` and sums.
    Counts,
}

#[derive(Debug, Clone)]
struct Model {
    domains: Vec<Vec<Val>>,
    cons: Vec<Con>,
}

fn con(n: usize, mix: Mix) -> BoxedStrategy<Con> {
    let var = 0..n;
    let vars = prop::collection::vec(0..n, 1..=4);
    let terms = prop::collection::vec((-3i64..=3, 0..n), 1..=4);
    match mix {
        Mix::Reasons => return focused(n),
        Mix::Tasks => return tasks(n),
        Mix::Words => return words(n),
        Mix::Parities => return parities(n),
        Mix::Routes => return routes(n),
        Mix::Arithmetic => return arithmetic(n),
        Mix::Globals => return globals(n),
        Mix::Counts => return counts(n),
        Mix::General => {}
    }
    prop_oneof![
        2 => (terms.clone(), 0..RELS.len(), -4i64..=8).prop_map(|(t, r, k)| Con::Linear(t, r, k)),
        4 => (var.clone(), var.clone(), -1i64..=1).prop_map(|(x, y, c)| Con::NotEqual(x, y, c)),
        2 => vars.clone().prop_map(Con::AllDifferent),
        1 => (prop::collection::vec((0..n, -2i64..=2), 2..=5), 0..CONSISTENCIES.len())
            .prop_map(|(xs, c)| Con::AllDifferentShifted(xs, c)),
        1 => prop::collection::vec(0..n, 2..=4).prop_map(Con::Queens),
        1 => (var.clone(), vars.clone(), var.clone()).prop_map(|(i, a, r)| Con::Element(i, a, r)),
        1 => (var.clone(), var.clone(), var.clone()).prop_map(|(x, y, z)| Con::Times(x, y, z)),
        1 => (var.clone(), var.clone()).prop_map(|(x, z)| Con::Abs(x, z)),
        1 => (var.clone(), vars.clone(), any::<bool>()).prop_map(|(r, xs, m)| Con::Max(r, xs, m)),
        1 => (prop::collection::vec(0..n, 2..=3), prop::collection::vec(prop::collection::vec(-1i64..=3, 3), 1..=6))
            .prop_map(|(xs, rows)| {
                let rows = rows.into_iter().map(|r| r[..xs.len()].to_vec()).collect();
                Con::Table(xs, rows)
            }),
        2 => (prop::collection::vec((0..n, 1i64..=3, 1i64..=3), 2..=4), 0..n).prop_map(|(t, c)| Con::Cumulative(t, c)),
        1 => automaton(n),
        1 => (vars.clone(), vars.clone()).prop_map(|(p, q)| Con::Clause(p, q)),
        1 => (prop::collection::vec((prop::collection::vec(0..n, 2..=5), any::<bool>()), 2..=4), any::<bool>())
            .prop_map(|(e, alone)| Con::Parities(e, alone)),
        1 => (var.clone(), terms.clone(), 0..RELS.len(), -3i64..=5).prop_map(|(b, t, r, k)| Con::Reified(b, t, r, k)),
        2 => (prop::collection::vec((terms, 0..RELS.len(), -3i64..=5), 1..=3), var.clone())
            .prop_map(|(rels, x)| Con::CountReified(rels, x)),
        2 => (prop::collection::vec((var.clone(), var.clone()), 1..=3), var.clone())
            .prop_map(|(pairs, x)| Con::CountEqual(pairs, x)),
        3 => (prop::collection::vec((var.clone(), prop::collection::vec(-2i64..=5, 0..=4), any::<bool>()), 1..=3), var)
            .prop_map(|(sets, x)| Con::CountIn(sets, x)),
    ]
    .boxed()
}

/// A random automaton over the positions of `n` variables: 1–4 states, 2–3 symbols.
fn automaton(n: usize) -> BoxedStrategy<Con> {
    (1usize..=4, 2usize..=3)
        .prop_flat_map(move |(states, symbols)| {
            (
                prop::collection::vec(0..n, 2..=6),
                // Few dead ends, so that words exist and the search has to look for them.
                prop::collection::vec(
                    prop::collection::vec(prop_oneof![1 => Just(0), 4 => 1..=states], symbols),
                    states,
                ),
                prop::collection::btree_set(1..=states, 1..=states),
            )
                .prop_map(move |(xs, next, accepting)| {
                    Con::Regular(xs, states, symbols, next, accepting.into_iter().collect())
                })
        })
        .boxed()
}

/// Constraints whose explanations are precise beyond linear ones (element, table, the
/// reified equality and set membership, all-different), with a few sums and `≠` to tie
/// them: a conflict there is analysed through their explanations far more often than in
/// the general mix.
fn focused(n: usize) -> BoxedStrategy<Con> {
    let var = 0..n;
    let vars = prop::collection::vec(0..n, 1..=4);
    let terms = prop::collection::vec((-3i64..=3, 0..n), 1..=4);
    let set = prop::collection::vec(-2i64..=5, 0..=4);
    prop_oneof![
        2 => (prop::sample::subsequence((0..n).collect::<Vec<_>>(), 3..=n.min(5)).prop_shuffle(), -1i64..=0)
            .prop_map(|(v, offset)| Con::Circuit(v, offset)),
        1 => (terms, 0..RELS.len(), -4i64..=8).prop_map(|(t, r, k)| Con::Linear(t, r, k)),
        1 => (var.clone(), var.clone(), -1i64..=1).prop_map(|(x, y, c)| Con::NotEqual(x, y, c)),
        2 => vars.clone().prop_map(Con::AllDifferent),
        1 => (prop::collection::vec((0..n, -2i64..=2), 2..=5), 0..CONSISTENCIES.len())
            .prop_map(|(xs, c)| Con::AllDifferentShifted(xs, c)),
        1 => prop::collection::vec(0..n, 2..=4).prop_map(Con::Queens),
        3 => automaton(n),
        2 => (vars.clone(), vars.clone()).prop_map(|(p, q)| Con::Clause(p, q)),
        2 => (prop::collection::vec((prop::collection::vec(0..n, 2..=5), any::<bool>()), 2..=4), any::<bool>())
            .prop_map(|(e, alone)| Con::Parities(e, alone)),
        3 => (var.clone(), vars.clone(), var.clone()).prop_map(|(i, a, r)| Con::Element(i, a, r)),
        3 => (prop::collection::vec(0..n, 2..=3), prop::collection::vec(prop::collection::vec(-1i64..=4, 3), 1..=8))
            .prop_map(|(xs, rows)| {
                let rows = rows.into_iter().map(|r| r[..xs.len()].to_vec()).collect();
                Con::Table(xs, rows)
            }),
        2 => (prop::collection::vec((var.clone(), var.clone()), 1..=3), var.clone())
            .prop_map(|(pairs, x)| Con::CountEqual(pairs, x)),
        3 => (prop::collection::vec((var.clone(), set, any::<bool>()), 1..=3), var)
            .prop_map(|(sets, x)| Con::CountIn(sets, x)),
    ]
    .boxed()
}

/// Resources (cumulative, with its edge finding and energetic reasoning, and
/// disjunctive, with detectable precedences and not-first), rectangles (diffn),
/// precedences `x + c ≤ y` and a few `≠` to tie them: the sets of tasks those rules reason on are larger than in the
/// general mix, so their explanations are reached and checked often.
fn tasks(n: usize) -> BoxedStrategy<Con> {
    let var = 0..n;
    prop_oneof![
        3 => (prop::collection::vec((0..n, 1i64..=3, 1i64..=3), 2..=5), 0..n).prop_map(|(t, c)| Con::Cumulative(t, c)),
        3 => prop::collection::vec((0..n, 1i64..=3), 2..=5).prop_map(Con::Disjunctive),
        1 => prop::collection::vec((0..n, 0..n), 2..=4).prop_map(Con::DisjunctiveVar),
        2 => (prop::collection::vec((0..n, 0..n, 1i64..=3, 1i64..=3), 2..=4), any::<bool>())
            .prop_map(|(r, strict)| Con::Diffn(r, strict)),
        1 => (prop::collection::vec((0..n, 0..n, 0..n, 0..n), 2..=3), any::<bool>())
            .prop_map(|(r, strict)| Con::DiffnVar(r, strict)),
        2 => (var.clone(), var.clone(), -1i64..=3).prop_map(|(x, y, c)| Con::Linear(vec![(1, x), (-1, y)], 2, -c)),
        1 => (var.clone(), var, -1i64..=1).prop_map(|(x, y, c)| Con::NotEqual(x, y, c)),
    ]
    .boxed()
}

/// Automata (regular) over the values 1–3, with `≠`, sums and all-different between
/// positions: conflicts there are mostly the automata's, so their explanations are
/// checked often.
fn words(n: usize) -> BoxedStrategy<Con> {
    let var = 0..n;
    prop_oneof![
        4 => automaton(n),
        2 => (var.clone(), var.clone(), -1i64..=1).prop_map(|(x, y, c)| Con::NotEqual(x, y, c)),
        2 => (prop::collection::vec((-2i64..=2, 0..n), 1..=4), 0..RELS.len(), 0i64..=6)
            .prop_map(|(t, r, k)| Con::Linear(t, r, k)),
        1 => prop::collection::vec(0..n, 2..=3).prop_map(Con::AllDifferent),
    ]
    .boxed()
}

/// Parity systems over 0/1 variables, mostly eliminated without their equations posted
/// one by one (so that the elimination fixes and fails, and explains), tied by clauses and
/// sums.
fn parities(n: usize) -> BoxedStrategy<Con> {
    let vars = prop::collection::vec(0..n, 1..=4);
    prop_oneof![
        4 => (prop::collection::vec((prop::collection::vec(0..n, 2..=5), any::<bool>()), 2..=4), prop::bool::weighted(0.8))
            .prop_map(|(e, alone)| Con::Parities(e, alone)),
        2 => (vars.clone(), vars).prop_map(|(p, q)| Con::Clause(p, q)),
        2 => prop::collection::vec((prop::collection::vec(0..n, 2..=5), 0i64..=3, any::<bool>()), 1..=4).prop_map(Con::Lines),
        1 => (prop::collection::vec((1i64..=2, 0..n), 2..=5), 0..RELS.len(), 0i64..=4)
            .prop_map(|(t, r, k)| Con::Linear(t, r, k)),
    ]
    .boxed()
}

/// Circuits over most of the variables, whose chains and cuts explain, with `≠` and sums.
fn routes(n: usize) -> BoxedStrategy<Con> {
    let var = 0..n;
    prop_oneof![
        3 => (prop::sample::subsequence((0..n).collect::<Vec<_>>(), 3..=n).prop_shuffle(), -1i64..=0)
            .prop_map(|(v, offset)| Con::Circuit(v, offset)),
        2 => (var.clone(), var.clone(), -2i64..=2).prop_map(|(x, y, c)| Con::NotEqual(x, y, c)),
        1 => (prop::collection::vec((1i64..=3, var), 2..=4), 0..RELS.len(), 2i64..=14)
            .prop_map(|(t, r, k)| Con::Linear(t, r, k)),
    ]
    .boxed()
}

/// Products and extrema, with variables repeated across roles now and then.
fn arithmetic(n: usize) -> BoxedStrategy<Con> {
    let var = 0..n;
    let vars = prop::collection::vec(0..n, 1..=4);
    prop_oneof![
        3 => (var.clone(), var.clone(), var.clone()).prop_map(|(x, y, z)| Con::Times(x, y, z)),
        3 => (var.clone(), vars, any::<bool>()).prop_map(|(r, xs, m)| Con::Max(r, xs, m)),
        2 => (prop::collection::vec((-2i64..=3, 0..n), 1..=3), 0..RELS.len(), -2i64..=8)
            .prop_map(|(t, r, k)| Con::Linear(t, r, k)),
        1 => (var.clone(), var, -1i64..=1).prop_map(|(x, y, c)| Con::NotEqual(x, y, c)),
    ]
    .boxed()
}

/// Global constraints with explanations of their own, with `≠` and sums to tie them.
fn globals(n: usize) -> BoxedStrategy<Con> {
    let var = 0..n;
    let vars = prop::collection::vec(0..n, 1..=4);
    let terms = prop::collection::vec((-3i64..=3, 0..n), 1..=4);
    prop_oneof![
        3 => (vars.clone(), vars.clone(), any::<bool>()).prop_map(|(x, y, strict)| Con::Lex(x, y, strict)),
        2 => (prop::collection::vec(0..n, 2..=5), prop::collection::btree_set(-1i64..=4, 1..=3), any::<bool>())
            .prop_flat_map(move |(x, cover, closed)| {
                let cover: Vec<Val> = cover.into_iter().collect();
                let k = cover.len();
                (Just(x), Just(cover), prop::collection::vec(0..n, k), Just(closed))
            })
            .prop_map(|(x, cover, counts, closed)| Con::Cardinality(x, cover, counts, closed)),
        2 => (prop::collection::vec(0..n, 2..=5), prop::collection::btree_map(-1i64..=4, (0i64..=2, 0i64..=3), 1..=3), any::<bool>())
            .prop_map(|(x, bounds, closed)| {
                let bounds = bounds.into_iter().map(|(v, (lo, extra))| (v, lo, lo + extra)).collect();
                Con::CardinalityLowUp(x, bounds, closed)
            }),
        4 => (prop::sample::subsequence((0..n).collect::<Vec<_>>(), 4..=n.min(8)).prop_shuffle(), 0i64..=1)
            .prop_map(|(v, offset)| {
                let half = v.len() / 2;
                Con::Inverse(v[..half].to_vec(), v[half..2 * half].to_vec(), offset)
            }),
        2 => (prop::sample::subsequence((0..n).collect::<Vec<_>>(), 3..=n.min(6)).prop_shuffle(), -1i64..=0)
            .prop_map(|(v, offset)| Con::Subcircuit(v, offset)),
        2 => (prop::collection::vec((-3i64..=3, 0..n), 2..=4), -4i64..=8).prop_map(|(t, k)| Con::LinearDomain(t, k)),
        2 => (var.clone(), var.clone(), var.clone(), any::<bool>()).prop_map(|(x, y, z, div)| Con::DivMod(x, y, z, div)),
        3 => (var.clone(), var.clone(), var.clone()).prop_map(|(x, z, y)| Con::Wide(x, z, y)),
        2 => (var.clone(), var, -1i64..=1).prop_map(|(x, y, c)| Con::NotEqual(x, y, c)),
        1 => (terms, 0..RELS.len(), -4i64..=8).prop_map(|(t, r, k)| Con::Linear(t, r, k)),
    ]
    .boxed()
}

/// Global cardinality over few values, each count a variable or a range.
fn counts(n: usize) -> BoxedStrategy<Con> {
    let var = 0..n;
    prop_oneof![
        3 => (prop::collection::vec(0..n, 2..=6), prop::collection::btree_set(-1i64..=4, 1..=3), any::<bool>())
            .prop_flat_map(move |(x, cover, closed)| {
                let cover: Vec<Val> = cover.into_iter().collect();
                let k = cover.len();
                (Just(x), Just(cover), prop::collection::vec(0..n, k), Just(closed))
            })
            .prop_map(|(x, cover, counts, closed)| Con::Cardinality(x, cover, counts, closed)),
        3 => (prop::collection::vec(0..n, 2..=6), prop::collection::btree_map(-1i64..=4, (0i64..=2, 0i64..=3), 1..=3), any::<bool>())
            .prop_map(|(x, bounds, closed)| {
                let bounds = bounds.into_iter().map(|(v, (lo, extra))| (v, lo, lo + extra)).collect();
                Con::CardinalityLowUp(x, bounds, closed)
            }),
        2 => (var.clone(), var, -1i64..=1).prop_map(|(x, y, c)| Con::NotEqual(x, y, c)),
        1 => (prop::collection::vec((-2i64..=2, 0..n), 1..=4), 0..RELS.len(), 0i64..=6)
            .prop_map(|(t, r, k)| Con::Linear(t, r, k)),
    ]
    .boxed()
}

fn model(mix: Mix) -> impl Strategy<Value = Model> {
    (4usize..=8).prop_flat_map(move |n| {
        // Scheduling wants windows wider than the other mixes' few values.
        let values = match mix {
            Mix::Tasks => prop::collection::btree_set(0i64..=7, 3..=8),
            Mix::Words => prop::collection::btree_set(0i64..=3, 2..=4),
            Mix::Parities => prop::collection::btree_set(0i64..=1, 2..=2),
            Mix::Routes => prop::collection::btree_set(-1i64..=7, 5..=9),
            Mix::Arithmetic => prop::collection::btree_set(-1i64..=9, 3..=7),
            _ => prop::collection::btree_set(-1i64..=4, 3..=6),
        };
        let domain = values.prop_map(|s| s.into_iter().collect::<Vec<_>>());
        // Global constraints are strong: fewer of them leave a search to learn in.
        let count = if matches!(mix, Mix::Globals | Mix::Counts) { 2..=n / 2 + 2 } else { n - 2..=n + 4 };
        (prop::collection::vec(domain, n), prop::collection::vec(con(n, mix), count))
            .prop_map(|(domains, cons)| Model { domains, cons })
    })
}

/// The solver, the model's variables, and every variable in creation order (the model's,
/// then those its constraints add: index `i` is the variable of index `i`).
fn build(m: &Model) -> (Solver, Vec<VarId>, Vec<VarId>) {
    let mut s = Solver::new();
    let xs: Vec<VarId> = m.domains.iter().map(|d| s.new_var_in(d).expect("small domain")).collect();
    let mut every = xs.clone();
    let terms = |t: &[(i64, usize)]| t.iter().map(|&(a, i)| (a, xs[i])).collect::<Vec<_>>();
    let pick = |v: &[usize]| v.iter().map(|&i| xs[i]).collect::<Vec<_>>();
    for c in &m.cons {
        match c {
            Con::Linear(t, r, k) => linear(&mut s, &terms(t), RELS[*r], *k).expect("no overflow"),
            Con::NotEqual(x, y, c) => not_equal(&mut s, xs[*x], xs[*y], *c),
            Con::AllDifferent(v) => all_different(&mut s, &pick(v), &[], Consistency::Domain),
            Con::AllDifferentShifted(v, c) => {
                let (vars, offsets): (Vec<VarId>, Vec<i64>) = v.iter().map(|&(i, o)| (xs[i], o)).unzip();
                all_different(&mut s, &vars, &offsets, CONSISTENCIES[*c]);
            }
            Con::Queens(v) => all_different_shifted(&mut s, &pick(v)),
            Con::Element(i, a, r) => element(&mut s, xs[*i], &pick(a), xs[*r]),
            Con::Times(x, y, z) => times(&mut s, xs[*x], xs[*y], xs[*z]).expect("no overflow"),
            Con::Abs(x, z) => abs(&mut s, xs[*x], xs[*z]).expect("no overflow"),
            Con::Max(r, v, is_max) => extremum(&mut s, xs[*r], &pick(v), *is_max),
            Con::Table(v, rows) => table(&mut s, &pick(v), rows),
            Con::Reified(b, t, r, k) => reified_linear(&mut s, xs[*b], &terms(t), RELS[*r], *k).expect("no overflow"),
            Con::CountReified(rels, x) => {
                let mut count = vec![(-1, xs[*x])];
                for (t, r, k) in rels {
                    let b = s.new_var(0, 1).expect("0/1");
                    every.push(b);
                    reified_linear(&mut s, b, &terms(t), RELS[*r], *k).expect("no overflow");
                    count.push((1, b));
                }
                linear(&mut s, &count, Rel::Eq, 0).expect("no overflow");
            }
            Con::CountEqual(pairs, x) => {
                let mut count = vec![(-1, xs[*x])];
                for &(a, b) in pairs {
                    let r = s.new_var(0, 1).expect("0/1");
                    every.push(r);
                    reified_equal(&mut s, r, xs[a], xs[b]);
                    count.push((1, r));
                }
                linear(&mut s, &count, Rel::Eq, 0).expect("no overflow");
            }
            Con::CountIn(sets, x) => {
                let mut count = vec![(-1, xs[*x])];
                for (y, set, half) in sets {
                    let r = s.new_var(0, 1).expect("0/1");
                    every.push(r);
                    reified_in(&mut s, r, xs[*y], set, *half);
                    count.push((1, r));
                }
                linear(&mut s, &count, Rel::Eq, 0).expect("no overflow");
            }
            Con::Cumulative(tasks, c) => {
                let starts: Vec<VarId> = tasks.iter().map(|&(i, _, _)| xs[i]).collect();
                let mut fixed = |s: &mut Solver, v: i64| {
                    let x = s.new_var(v, v).expect("one value");
                    every.push(x);
                    x
                };
                let durations: Vec<VarId> = tasks.iter().map(|&(_, d, _)| fixed(&mut s, d)).collect();
                let uses: Vec<VarId> = tasks.iter().map(|&(_, _, r)| fixed(&mut s, r)).collect();
                cumulative(&mut s, &starts, &durations, &uses, xs[*c]).expect("no overflow");
            }
            Con::Disjunctive(tasks) => {
                let starts: Vec<VarId> = tasks.iter().map(|&(i, _)| xs[i]).collect();
                let durations: Vec<VarId> = tasks.iter().map(|&(_, d)| fixed_var(&mut s, &mut every, d)).collect();
                no_overlap(&mut s, &mut every, &starts, &durations);
            }
            Con::DisjunctiveVar(tasks) => {
                let starts: Vec<VarId> = tasks.iter().map(|&(i, _)| xs[i]).collect();
                let durations: Vec<VarId> = tasks.iter().map(|&(_, d)| xs[d]).collect();
                no_overlap(&mut s, &mut every, &starts, &durations);
            }
            Con::Clause(p, q) => clause(&mut s, &pick(p), &pick(q)),
            Con::Circuit(v, offset) => circuit(&mut s, &pick(v), *offset),
            Con::Parities(equations, alone) => {
                let equations: Vec<(Vec<VarId>, bool)> = equations.iter().map(|(v, odd)| (pick(v), *odd)).collect();
                for (v, odd) in equations.iter().filter(|_| !alone) {
                    parity(&mut s, v, *odd);
                }
                parity_elimination(&mut s, &equations);
            }
            Con::Regular(v, states, symbols, next, accepting) => {
                regular(&mut s, &pick(v), *states, *symbols, next, 1, accepting).expect("a valid automaton");
            }
            Con::Diffn(rects, strict) => {
                let (x, y): (Vec<VarId>, Vec<VarId>) = rects.iter().map(|&(a, b, _, _)| (xs[a], xs[b])).unzip();
                let dx: Vec<VarId> = rects.iter().map(|&(_, _, w, _)| fixed_var(&mut s, &mut every, w)).collect();
                let dy: Vec<VarId> = rects.iter().map(|&(_, _, _, h)| fixed_var(&mut s, &mut every, h)).collect();
                diffn(&mut s, &x, &y, &dx, &dy, *strict).expect("no overflow");
            }
            Con::Lines(lines) => {
                let lines: Vec<CountedLine> = lines
                    .iter()
                    .map(|(v, cap, exact)| CountedLine { vars: pick(v), cap: *cap, exact: *exact })
                    .collect();
                line_counts(&mut s, &lines);
            }
            Con::Lex(x, y, strict) => {
                if *strict {
                    lex_less(&mut s, &pick(x), &pick(y));
                } else {
                    lex_lesseq(&mut s, &pick(x), &pick(y));
                }
            }
            Con::Cardinality(x, cover, counts, closed) => {
                global_cardinality(&mut s, &pick(x), cover, &pick(counts), *closed).expect("one count per value");
            }
            Con::CardinalityLowUp(x, bounds, closed) => {
                // `global_cardinality_low_up` with its count variables made here, so that
                // they are listed in `every`.
                let cover: Vec<Val> = bounds.iter().map(|b| b.0).collect();
                let counts: Vec<VarId> = bounds
                    .iter()
                    .map(|&(_, lo, up)| {
                        let c = s.new_var(lo, up).expect("a range");
                        every.push(c);
                        c
                    })
                    .collect();
                global_cardinality(&mut s, &pick(x), &cover, &counts, *closed).expect("one count per value");
            }
            Con::Inverse(f, g, offset) => {
                inverse(&mut s, &pick(f), *offset, &pick(g), *offset, Consistency::Domain).expect("same lengths");
            }
            Con::Subcircuit(v, offset) => subcircuit(&mut s, &pick(v), *offset),
            Con::LinearDomain(t, k) => linear_eq_domain(&mut s, &terms(t), *k).expect("small sums"),
            Con::DivMod(x, y, z, div) => {
                let f: fn(Val, Val) -> Option<Val> = if *div { Val::checked_div } else { Val::checked_rem };
                binary_function(&mut s, xs[*x], xs[*y], xs[*z], f, if *div { "div" } else { "mod" })
                    .expect("a function");
            }
            Con::Wide(x, z, y) => {
                let mut new = |s: &mut Solver, lo: Val, hi: Val| {
                    let v = s.new_var(lo, hi).expect("a range");
                    every.push(v);
                    v
                };
                let (w, a, q) = (new(&mut s, -200, 200), new(&mut s, 0, 200), new(&mut s, -30, 30));
                linear(&mut s, &[(1, w), (-25, xs[*x])], Rel::Eq, -40).expect("no overflow");
                abs(&mut s, w, a).expect("no overflow");
                linear(&mut s, &[(1, a), (-25, xs[*z])], Rel::Le, 10).expect("no overflow");
                div_by_constant(&mut s, w, 7, q).expect("no overflow");
                linear(&mut s, &[(1, q), (-3, xs[*y])], Rel::Le, 2).expect("no overflow");
            }
            Con::DiffnVar(rects, strict) => {
                let side = |k: usize| rects.iter().map(|r| xs[[r.0, r.1, r.2, r.3][k]]).collect::<Vec<_>>();
                diffn(&mut s, &side(0), &side(1), &side(2), &side(3), *strict).expect("no overflow");
            }
        }
    }
    (s, xs, every)
}

/// A new variable of one value, listed in `every`.
fn fixed_var(s: &mut Solver, every: &mut Vec<VarId>, v: Val) -> VarId {
    let x = s.new_var(v, v).expect("one value");
    every.push(x);
    x
}

/// MiniZinc's `disjunctive` as the engine posts it (a cumulative of unit uses and capacity,
/// which adds the unary resource's rules), with its one new variable listed in `every`.
fn no_overlap(s: &mut Solver, every: &mut Vec<VarId>, starts: &[VarId], durations: &[VarId]) {
    let one = fixed_var(s, every, 1);
    cumulative(s, starts, durations, &vec![one; starts.len()], one).expect("no overflow");
}

/// Every way a learning search may use activities.
const ACTIVITY: [ActivitySearch; 4] =
    [ActivitySearch::Off, ActivitySearch::Rest, ActivitySearch::Alternate, ActivitySearch::Only];

fn config(xs: &[VarId], var_order: usize, val_order: usize, learning: bool) -> SearchConfig {
    SearchConfig {
        branching: vec![Branching {
            vars: xs.to_vec(),
            var_order: VAR_ORDERS[var_order],
            val_order: VAL_ORDERS[val_order],
        }],
        check_solutions: true,
        learning,
        ..SearchConfig::default()
    }
}

fn solutions(m: &Model, config: &SearchConfig) -> (Vec<Vec<Val>>, Vec<Vec<Literal>>) {
    let (mut s, _, every) = build(m);
    let mut found = Vec::new();
    let outcome = s.search(config, |sol| {
        // Every variable's value, the ones the constraints add included (nogoods name them).
        found.push(every.iter().map(|&x| sol.value(x)).collect::<Vec<_>>());
        ControlFlow::Continue(())
    });
    assert_eq!(outcome.stopped, None);
    found.sort();
    (found, s.learned_log().to_vec())
}

/// Whether every literal of `nogood` holds in the assignment `values` (of variables 0..n).
fn all_hold(nogood: &[Literal], values: &[Val]) -> bool {
    nogood.iter().all(|f| f.holds_for(values[var_index(*f)]))
}

fn var_index(f: Literal) -> usize {
    f.var().index()
}

/// The search with learning lists the solutions of the search without, and no nogood it
/// learned excludes one.
fn keeps_every_solution(
    m: &Model,
    var_order: usize,
    val_order: usize,
    activity: usize,
    partial: bool,
) -> Result<(), TestCaseError> {
    let (without, _) = solutions(m, &config(&[], var_order, val_order, false));
    let (_, xs, _) = build(m);
    let (plain, _) = solutions(m, &config(&xs, var_order, val_order, false));
    // Activity decides what the groups leave: let them leave something.
    let grouped = if partial { &xs[..xs.len() / 2] } else { &xs[..] };
    let learning = SearchConfig { activity: ACTIVITY[activity], ..config(grouped, var_order, val_order, true) };
    let (learned, nogoods) = solutions(m, &learning);
    prop_assert_eq!(&plain, &learned);
    prop_assert_eq!(plain.len(), without.len());
    for nogood in &nogoods {
        for sol in &plain {
            prop_assert!(!all_hold(nogood, sol), "the nogood {:?} excludes the solution {:?}", nogood, sol);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn learning_keeps_every_solution_and_learns_only_implied_nogoods(
        m in model(Mix::General), var_order in 0..VAR_ORDERS.len(), val_order in 0..VAL_ORDERS.len(),
        activity in 0..ACTIVITY.len(), partial in any::<bool>(),
    ) {
        keeps_every_solution(&m, var_order, val_order, activity, partial)?;
    }

    #[test]
    fn learning_with_restarts_proves_the_same_optimum(
        m in model(Mix::General), val_order in 0..VAL_ORDERS.len(), objective in 0usize..6, maximize in any::<bool>(),
        activity in 0..ACTIVITY.len(), over_literals in any::<bool>(),
    ) {
        let objective = objective % m.domains.len();
        let sense = if maximize { Sense::Maximize } else { Sense::Minimize };
        let best = |learning: bool| {
            let (mut s, xs, _) = build(&m);
            let config = SearchConfig {
                objective: Some((xs[objective], sense)),
                restart_scale: Some(2),
                nogoods: true,
                phase_saving: true,
                activity: ACTIVITY[activity],
                activity_over: if over_literals { ActivityOver::Literals } else { ActivityOver::Variables },
                learned_kept: Some(1),
                ..config(&xs, 2, val_order, learning)
            };
            let mut best = None;
            let outcome = s.search(&config, |sol| {
                best = Some(sol.value(xs[objective]));
                ControlFlow::Continue(())
            });
            assert_eq!(outcome.stopped, None);
            best
        };
        prop_assert_eq!(best(false), best(true));
    }

    /// A probe of a plain search (every few nodes it projects its tree and may give way)
    /// before the learning search: the same optimum as the plain search alone, and every
    /// solution reported, across the switch too, strictly better than the one before (the
    /// learning search starts from the probe's bound).
    #[test]
    fn a_probe_before_learning_proves_the_same_optimum(
        m in model(Mix::General), val_order in 0..VAL_ORDERS.len(), objective in 0usize..6, maximize in any::<bool>(),
        activity in 0..ACTIVITY.len(), look_every in 1u64..6, max_propagations in 0u64..400,
    ) {
        let objective = objective % m.domains.len();
        let sense = if maximize { Sense::Maximize } else { Sense::Minimize };
        // Without the probe, the search without learning: the ground truth.
        let run = |probing: bool| {
            let (mut s, xs, _) = build(&m);
            let probe = probing.then(|| Probe { branching: config(&xs, 0, val_order, false).branching, max_propagations, look_every, overrun: Probe::OVERRUN });
            let config = SearchConfig {
                objective: Some((xs[objective], sense)),
                restart_scale: Some(2),
                phase_saving: true,
                activity: ACTIVITY[activity],
                learned_kept: Some(1),
                probe,
                ..config(&xs, 2, val_order, probing)
            };
            let mut found = Vec::new();
            let outcome = s.search(&config, |sol| {
                found.push(sol.value(xs[objective]));
                ControlFlow::Continue(())
            });
            assert_eq!(outcome.stopped, None);
            found
        };
        let plain = run(false);
        let probed = run(true);
        prop_assert_eq!(plain.last(), probed.last());
        for pair in probed.windows(2) {
            let better = if maximize { pair[1] > pair[0] } else { pair[1] < pair[0] };
            prop_assert!(better, "{:?} after {:?}", pair[1], pair[0]);
        }
    }

    /// One solution wanted, restarts: the search with learning jumps back to where each
    /// nogood asserts, and still finds a solution exactly when there is one.
    #[test]
    fn learning_with_backjumps_finds_a_solution_when_there_is_one(
        m in model(Mix::General), val_order in 0..VAL_ORDERS.len(), activity in 0..ACTIVITY.len(),
        over_literals in any::<bool>(),
    ) {
        let (mut s, xs, every) = build(&m);
        let (all, _) = solutions(&m, &config(&xs, 0, 0, false));
        let config = SearchConfig {
            restart_scale: Some(2),
            nogoods: true,
            limits: cpsolve_engine::Limits { solutions: Some(1), ..Default::default() },
            activity: ACTIVITY[activity],
            activity_over: if over_literals { ActivityOver::Literals } else { ActivityOver::Variables },
            learned_kept: Some(1),
            ..config(&xs, 2, val_order, true)
        };
        let mut found = None;
        let outcome = s.search(&config, |sol| {
            found = Some(every.iter().map(|&x| sol.value(x)).collect::<Vec<_>>());
            ControlFlow::Continue(())
        });
        prop_assert!(outcome.stopped.is_none() || outcome.stopped == Some(cpsolve_engine::Stop::Solutions));
        match found {
            Some(sol) => prop_assert!(all.contains(&sol), "{:?} is not a solution", sol),
            None => prop_assert!(all.is_empty(), "no solution found, but {:?} is one", all[0]),
        }
    }
}

proptest! {
    // Conflicts that reach these explanations are rarer than their constraints: more cases.
    #![proptest_config(ProptestConfig::with_cases(6000))]

    /// The same through global constraints with explanations of their own (lex, global
    /// cardinality, inverse, subcircuit, the domain-consistent sum, division, `abs`).
    #[test]
    fn learning_through_global_constraints_keeps_every_solution(
        m in model(Mix::Globals), var_order in 0..VAR_ORDERS.len(), val_order in 0..VAL_ORDERS.len(),
        activity in 0..ACTIVITY.len(), partial in any::<bool>(),
    ) {
        keeps_every_solution(&m, var_order, val_order, activity, partial)?;
    }

    /// The same through global cardinality alone, whose rules are many.
    #[test]
    fn learning_through_global_cardinality_keeps_every_solution(
        m in model(Mix::Counts), var_order in 0..VAR_ORDERS.len(), val_order in 0..VAL_ORDERS.len(),
        activity in 0..ACTIVITY.len(), partial in any::<bool>(),
    ) {
        keeps_every_solution(&m, var_order, val_order, activity, partial)?;
    }

    /// The same on models made mostly of the constraints with their own explanations
    /// beyond linear ones, so that each explanation is checked by brute force often.
    #[test]
    fn learning_through_tables_elements_and_sets_keeps_every_solution(
        m in model(Mix::Reasons), var_order in 0..VAR_ORDERS.len(), val_order in 0..VAL_ORDERS.len(),
        activity in 0..ACTIVITY.len(), partial in any::<bool>(),
    ) {
        keeps_every_solution(&m, var_order, val_order, activity, partial)?;
    }

    /// The same on parity systems, whose elimination explains by the fixed variables of
    /// the row that fixed or failed.
    #[test]
    fn learning_through_parity_systems_keeps_every_solution(
        m in model(Mix::Parities), var_order in 0..VAR_ORDERS.len(), val_order in 0..VAL_ORDERS.len(),
        activity in 0..ACTIVITY.len(), partial in any::<bool>(),
    ) {
        keeps_every_solution(&m, var_order, val_order, activity, partial)?;
    }

    /// The same on circuits, which explain by the chains they closed off and the cuts of
    /// their graphs.
    #[test]
    fn learning_through_circuits_keeps_every_solution(
        m in model(Mix::Routes), var_order in 0..VAR_ORDERS.len(), val_order in 0..VAL_ORDERS.len(),
        activity in 0..ACTIVITY.len(), partial in any::<bool>(),
    ) {
        keeps_every_solution(&m, var_order, val_order, activity, partial)?;
    }

    /// The same on products and extrema, which explain by the bounds (or the one corner)
    /// their rules read.
    #[test]
    fn learning_through_products_and_extrema_keeps_every_solution(
        m in model(Mix::Arithmetic), var_order in 0..VAR_ORDERS.len(), val_order in 0..VAL_ORDERS.len(),
        activity in 0..ACTIVITY.len(), partial in any::<bool>(),
    ) {
        keeps_every_solution(&m, var_order, val_order, activity, partial)?;
    }

    /// The same on scheduling models, whose resources explain by the sets of tasks their
    /// rules used.
    #[test]
    fn learning_through_resources_keeps_every_solution(
        m in model(Mix::Tasks), var_order in 0..VAR_ORDERS.len(), val_order in 0..VAL_ORDERS.len(),
        activity in 0..ACTIVITY.len(), partial in any::<bool>(),
    ) {
        keeps_every_solution(&m, var_order, val_order, activity, partial)?;
    }
}

proptest! {
    // Small models of automata rarely fail: many cases, each cheap.
    #![proptest_config(ProptestConfig::with_cases(20000))]

    /// The same on models of automata, which explain by the missing values that cut the
    /// paths of their layered graphs.
    #[test]
    fn learning_through_automata_keeps_every_solution(
        m in model(Mix::Words), var_order in 0..VAR_ORDERS.len(), val_order in 0..VAL_ORDERS.len(),
        activity in 0..ACTIVITY.len(), partial in any::<bool>(),
    ) {
        keeps_every_solution(&m, var_order, val_order, activity, partial)?;
    }
}

/// `xᵢ ≠ xⱼ + c` for every pair `i < j` and every `c` of `offsets(j − i)`.
fn pairwise_not_equal(s: &mut Solver, xs: &[VarId], offsets: impl Fn(i64) -> Vec<i64>) {
    for i in 0..xs.len() {
        for j in i + 1..xs.len() {
            for c in offsets((j - i) as i64) {
                not_equal(s, xs[i], xs[j], c);
            }
        }
    }
}

/// `pigeons` variables over `1..=holes`, pairwise different, and the groups that decide
/// them in input order.
fn pigeons(s: &mut Solver, pigeons: usize, holes: Val) -> (Vec<VarId>, Vec<Branching>) {
    let xs: Vec<VarId> = (0..pigeons).map(|_| s.new_var(1, holes).expect("small")).collect();
    pairwise_not_equal(s, &xs, |_| vec![0]);
    let branching = vec![Branching { vars: xs.clone(), var_order: VarOrder::Input, ..Branching::default() }];
    (xs, branching)
}

/// Four pigeons in three holes, pairwise different: every branch fails, so the search with
/// learning must learn, and the nogoods cut the tree.
#[test]
fn pigeons_make_the_search_learn_and_shrink_the_tree() {
    let run = |learning: bool| {
        let mut s = Solver::new();
        let (_, branching) = pigeons(&mut s, 5, 4);
        let config = SearchConfig { branching, learning, check_solutions: true, ..SearchConfig::default() };
        let outcome = s.search(&config, |_| ControlFlow::Continue(()));
        assert_eq!(outcome.solutions, 0);
        (s.stats().nodes, s.stats().learned)
    };
    let (plain_nodes, none) = run(false);
    let (learning_nodes, learned) = run(true);
    assert_eq!(none, 0);
    assert!(learned > 0, "no nogood learned");
    assert!(learning_nodes < plain_nodes, "{learning_nodes} nodes with learning, {plain_nodes} without");
}

/// A search that never restarts (a count of the 10-queens) forgets in place, off the root:
/// the count stays that of the search without learning, and the nogoods that are reasons
/// on the branch are kept (the checks of `check_solutions` fail on a reason forgotten).
#[test]
fn forgetting_in_place_keeps_the_count() {
    let queens = |learning: bool| {
        let mut s = Solver::new();
        let xs: Vec<VarId> = (0..10).map(|_| s.new_var(1, 10).expect("small")).collect();
        // Queens: another column, another diagonal either way.
        pairwise_not_equal(&mut s, &xs, |d| vec![0, d, -d]);
        let config = SearchConfig {
            branching: vec![Branching { vars: xs, var_order: VarOrder::Input, ..Branching::default() }],
            learning,
            learned_kept: Some(2),
            check_solutions: true,
            ..SearchConfig::default()
        };
        let outcome = s.search(&config, |_| ControlFlow::Continue(()));
        assert_eq!(outcome.stopped, None);
        (outcome.solutions, s.stats().forgotten, s.stats().learned)
    };
    let (count, _, _) = queens(false);
    let (learned_count, forgotten, learned) = queens(true);
    assert_eq!(count, 724, "the number of 10-queens solutions (OEIS A000170)");
    assert_eq!(learned_count, count);
    assert!(forgotten > 0, "nothing forgotten: {learned} learned");
}

/// Eight pigeons in seven holes, one solution wanted: a probe of the plain search, whose
/// tree is too large for the probe's allowance, gives way after its first look, and the
/// learning search proves there is none; with the allowance of the whole tree, the probe
/// proves it alone, and nothing is learned.
#[test]
fn a_probe_gives_way_where_its_tree_is_too_large() {
    let run = |max_propagations: u64| {
        let mut s = Solver::new();
        let (_, branching) = pigeons(&mut s, 8, 7);
        let config = SearchConfig {
            branching: branching.clone(),
            learning: true,
            activity: ActivitySearch::Only,
            restart_scale: Some(10),
            check_solutions: true,
            limits: cpsolve_engine::Limits { solutions: Some(1), ..Default::default() },
            probe: Some(Probe { branching, max_propagations, look_every: 64, overrun: Probe::OVERRUN }),
            ..SearchConfig::default()
        };
        let outcome = s.search(&config, |_| ControlFlow::Continue(()));
        assert_eq!((outcome.solutions, outcome.stopped), (0, None));
        s.stats().clone()
    };
    let gave_way = run(1_000);
    assert!(gave_way.probe_propagations > 0 && gave_way.learned > 0, "{gave_way:?}");
    // It gives way at a look (every 64 nodes) once past its allowance, if not before.
    assert!(gave_way.probe_propagations <= 2 * 1_000, "{gave_way:?}");
    let alone = run(u64::MAX);
    assert_eq!((alone.probe_propagations, alone.learned), (0, 0), "{alone:?}");
}

/// Nine pigeons in eight holes, one solution wanted, restarts and activity: the search
/// learns thousands of nogoods, the database forgets most of them at restarts, and the
/// answer (none) is still proved.
#[test]
fn forgetting_nogoods_keeps_the_answer() {
    let mut s = Solver::new();
    let (_, branching) = pigeons(&mut s, 9, 8);
    let config = SearchConfig {
        branching,
        learning: true,
        activity: ActivitySearch::Only,
        restart_scale: Some(10),
        learned_kept: Some(10),
        limits: cpsolve_engine::Limits { solutions: Some(1), ..Default::default() },
        ..SearchConfig::default()
    };
    let outcome = s.search(&config, |_| ControlFlow::Continue(()));
    assert_eq!((outcome.solutions, outcome.stopped), (0, None));
    let stats = s.stats();
    assert!(stats.forgotten > 0, "nothing forgotten: {} learned", stats.learned);
}
