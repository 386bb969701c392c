//! Random models against brute force, and random statements against panics.
//!
//! A random linear model (two or three variables with small range or set domains, one to
//! three relations with random coefficients, written as `.puz` text the way a user would)
//! must have exactly as many solutions as enumerating every assignment finds. Random
//! statements (well formed, but often ill-typed, out of range or huge) after a few
//! declarations must compile or fail cleanly, never panic.

mod common;

use std::ops::ControlFlow;

use cpsolve_engine::{Limits, Val};
use cpsolve_models::generic::compile;
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Domain {
    Range(Val, Val),
    Set(Vec<Val>),
}

impl Domain {
    fn values(&self) -> Vec<Val> {
        match self {
            Domain::Range(lo, hi) => (*lo..=*hi).collect(),
            Domain::Set(values) => values.clone(),
        }
    }

    fn text(&self) -> String {
        match self {
            Domain::Range(lo, hi) => format!("{lo}..{hi}"),
            Domain::Set(values) => {
                format!("{{{}}}", values.iter().map(Val::to_string).collect::<Vec<_>>().join(", "))
            }
        }
    }
}

/// `Σ lhs + lhs_const ⋈ Σ rhs + rhs_const`, each term `(coef, var, coefficient first?)`.
#[derive(Debug, Clone)]
struct Relation {
    lhs: Vec<(i64, usize, bool)>,
    lhs_const: i64,
    op: &'static str,
    rhs: Vec<(i64, usize, bool)>,
    rhs_const: i64,
}

const OPS: [&str; 7] = ["==", "=", "!=", "<", "<=", ">", ">="];

fn side_text(terms: &[(i64, usize, bool)], constant: i64) -> String {
    let mut parts: Vec<String> = terms
        .iter()
        .map(|&(a, x, first)| match (a, first) {
            (1, _) => format!("x{x}"),
            (-1, _) => format!("-x{x}"),
            (_, true) => format!("{a}*x{x}"),
            (_, false) => format!("x{x} * ({a})"),
        })
        .collect();
    if constant != 0 || parts.is_empty() {
        parts.push(constant.to_string());
    }
    parts.join(" + ")
}

impl Relation {
    fn text(&self) -> String {
        format!("{} {} {}", side_text(&self.lhs, self.lhs_const), self.op, side_text(&self.rhs, self.rhs_const))
    }

    fn holds(&self, values: &[Val]) -> bool {
        let side = |terms: &[(i64, usize, bool)], c: i64| terms.iter().map(|&(a, x, _)| a * values[x]).sum::<i64>() + c;
        let (l, r) = (side(&self.lhs, self.lhs_const), side(&self.rhs, self.rhs_const));
        match self.op {
            "==" | "=" => l == r,
            "!=" => l != r,
            "<" => l < r,
            "<=" => l <= r,
            ">" => l > r,
            _ => l >= r,
        }
    }
}

fn domain() -> impl Strategy<Value = Domain> {
    prop_oneof![
        (-4i64..=2, 0i64..=4).prop_map(|(lo, w)| Domain::Range(lo, lo + w)),
        prop::collection::btree_set(-5i64..=5, 1..=4).prop_map(|s| Domain::Set(s.into_iter().collect())),
    ]
}

fn terms(vars: usize) -> impl Strategy<Value = Vec<(i64, usize, bool)>> {
    prop::collection::vec((-5i64..=5, 0..vars, any::<bool>()), 0..=3)
}

fn relation(vars: usize) -> impl Strategy<Value = Relation> {
    (terms(vars), -6i64..=6, 0..OPS.len(), terms(vars), -6i64..=6)
        .prop_map(|(lhs, lhs_const, op, rhs, rhs_const)| Relation { lhs, lhs_const, op: OPS[op], rhs, rhs_const })
}

fn model() -> impl Strategy<Value = (Vec<Domain>, Vec<Relation>)> {
    (2usize..=3).prop_flat_map(|n| (prop::collection::vec(domain(), n), prop::collection::vec(relation(n), 1..=3)))
}

fn count_solutions(source: &str) -> u128 {
    common::count_solutions(source, |_| false)
}

fn brute_force(domains: &[Domain], relations: &[Relation]) -> u128 {
    let mut all: Vec<Vec<Val>> = vec![vec![]];
    for d in domains {
        all =
            all.into_iter().flat_map(|a| d.values().into_iter().map(move |v| [a.clone(), vec![v]].concat())).collect();
    }
    all.iter().filter(|values| relations.iter().all(|r| r.holds(values))).count() as u128
}

/// A random integer expression over the names of the fuzz header, often ill-typed or
/// out of range, sometimes huge.
fn expr() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        prop::sample::select(vec!["0", "1", "3", "-2", "n", "i", "j", "x", "y", "q", "4611686018427387904"])
            .prop_map(str::to_owned),
        (-4i64..=5).prop_map(|v| format!("q[{v}]")),
    ];
    leaf.prop_recursive(3, 16, 3, |inner| {
        let op = prop::sample::select(vec!["+", "-", "*", "/", "mod", "==", "<", "and", "or", "->", "++", ".."]);
        prop_oneof![
            (inner.clone(), op, inner.clone()).prop_map(|(a, op, b)| format!("({a} {op} {b})")),
            inner.clone().prop_map(|a| format!("-{a}")),
            inner.clone().prop_map(|a| format!("q[{a}]")),
            (
                prop::sample::select(vec!["sum", "abs", "min", "alldifferent", "count"]),
                prop::collection::vec(inner.clone(), 0..3)
            )
                .prop_map(|(f, args)| format!("{f}({})", args.join(", "))),
            prop::collection::vec(inner.clone(), 0..3).prop_map(|items| format!("[{}]", items.join(", "))),
            prop::collection::vec(inner.clone(), 0..3).prop_map(|items| format!("{{{}}}", items.join(", "))),
            (inner.clone(), bound(), bound(), inner.clone())
                .prop_map(|(e, lo, hi, w)| format!("[{e} | i in {lo}..{hi} where {w}]")),
        ]
    })
}

/// A generator bound. Kept small: huge loops are refused by the binding budget (tested in
/// `generic_errors.rs`), but a million constraints on one variable take the engine long
/// to post, and this test is about panics.
fn bound() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["-3", "0", "1", "3", "6", "n", "i", "x", "q[2]", "(n - 1)", "true"])
        .prop_map(str::to_owned)
}

/// A random statement built from random expressions.
fn statement() -> impl Strategy<Value = String> {
    let rel = prop::sample::select(vec!["==", "!=", "<", ">=", "="]);
    prop_oneof![
        (expr(), rel, expr()).prop_map(|(a, r, b)| format!("{a} {r} {b}")),
        expr(),
        expr().prop_map(|e| format!("alldifferent({e})")),
        (bound(), bound(), expr()).prop_map(|(lo, hi, e)| format!("forall i, j in {lo}..{hi} where i < j: {e} != x")),
        (expr(), expr()).prop_map(|(lo, hi)| format!("var z[{lo}..{hi}] in {lo}..{hi}")),
        expr().prop_map(|e| format!("let m = {e}")),
        expr().prop_map(|e| format!("var w in {{0, {e}}}")),
        expr().prop_map(|e| format!("minimize {e}")),
        prop::sample::select(vec![
            "given q =\n  1 . 3",
            "given q =\n  1 2",
            "given q =\n  4 . .\n  1 2 3",
            "given x =\n  1"
        ])
        .prop_map(str::to_owned),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn random_linear_models_match_brute_force((domains, relations) in model()) {
        let mut source = String::new();
        for (k, d) in domains.iter().enumerate() {
            source.push_str(&format!("var x{k} in {}\n", d.text()));
        }
        for r in &relations {
            source.push_str(&r.text());
            source.push('\n');
        }
        source.push_str("solve count\n");
        prop_assert_eq!(count_solutions(&source), brute_force(&domains, &relations), "{}", source);
    }

    #[test]
    fn random_statements_never_panic(lines in prop::collection::vec(statement(), 1..4)) {
        let source = format!("let n = 3\nvar q[1..n] in 1..n\nvar x, y in 0..9\n{}\n", lines.join("\n"));
        if let Ok(file) = cpsolve_dsl::parse(&source) {
            if let Ok(mut problem) = compile(&file) {
                let mut config = problem.search.clone();
                config.limits = Limits { nodes: Some(1000), ..Limits::default() };
                let _ = problem.solver.search(&config, |_| ControlFlow::Continue(()));
            }
        }
    }
}
