//! Random models with `if … then … else … endif` (as conditions and as integers, over
//! variables), membership (`in` constant sets and a set variable), set relations and `card`,
//! and array reads that may leave their range, against an independent evaluator of
//! MiniZinc's semantics: an expression without a value makes its nearest relation or
//! membership false; an `if` takes the branch of its first true condition, and an integer
//! branch needs a value only where it is taken.

mod common;

use cpsolve_engine::Val;
use proptest::prelude::*;

const VARS: usize = 2;
/// The constant array `a`, indexed 1..3, read at variable indices.
const A: [Val; 3] = [2, -1, 3];
/// The universe of the set variable `s`.
const UNIVERSE: [Val; 3] = [1, 2, 3];

#[derive(Debug, Clone)]
enum E {
    Const(Val),
    Var(usize),
    Add(Box<E>, Box<E>),
    /// `a[e]`
    Cell(Box<E>),
    If(Box<C>, Box<E>, Box<E>),
}

#[derive(Debug, Clone)]
enum C {
    Rel(E, &'static str, E),
    /// `e in {…}`
    InConst(E, Vec<Val>),
    /// `e in s`
    InSet(E),
    /// `card(s) ⋈ k`
    Card(&'static str, Val),
    /// `s subset {…}` (true) or `{…} subset s` (false)
    Subset(bool, Vec<Val>),
    Not(Box<C>),
    Bin(Box<C>, &'static str, Box<C>),
    If(Box<C>, Box<C>, Box<C>),
}

fn compare(a: Val, op: &str, b: Val) -> bool {
    match op {
        "==" => a == b,
        "!=" => a != b,
        "<" => a < b,
        "<=" => a <= b,
        ">" => a > b,
        _ => a >= b,
    }
}

fn set_text(values: &[Val]) -> String {
    format!("{{{}}}", values.iter().map(Val::to_string).collect::<Vec<_>>().join(", "))
}

impl E {
    fn text(&self) -> String {
        match self {
            E::Const(v) => format!("{v}"),
            E::Var(i) => format!("x{i}"),
            E::Add(a, b) => format!("({} + {})", a.text(), b.text()),
            E::Cell(e) => format!("a[{}]", e.text()),
            E::If(c, a, b) => format!("(if {} then {} else {} endif)", c.text(), a.text(), b.text()),
        }
    }

    /// `None`: no value (an index out of range).
    fn eval(&self, x: &[Val], s: &[bool]) -> Option<Val> {
        match self {
            E::Const(v) => Some(*v),
            E::Var(i) => Some(x[*i]),
            E::Add(a, b) => Some(a.eval(x, s)? + b.eval(x, s)?),
            E::Cell(e) => {
                let i = e.eval(x, s)?;
                (1..=3).contains(&i).then(|| A[i as usize - 1])
            }
            E::If(c, a, b) => {
                if c.eval(x, s) {
                    a.eval(x, s)
                } else {
                    b.eval(x, s)
                }
            }
        }
    }
}

impl C {
    fn text(&self) -> String {
        match self {
            C::Rel(a, op, b) => format!("({} {op} {})", a.text(), b.text()),
            C::InConst(e, values) => format!("({} in {})", e.text(), set_text(values)),
            C::InSet(e) => format!("({} in s)", e.text()),
            C::Card(op, k) => format!("(card(s) {op} {k})"),
            C::Subset(true, values) => format!("(s subset {})", set_text(values)),
            C::Subset(false, values) => format!("({} subset s)", set_text(values)),
            C::Not(c) => format!("(not {})", c.text()),
            C::Bin(a, op, b) => format!("({} {op} {})", a.text(), b.text()),
            C::If(c, a, b) => format!("(if {} then {} else {} endif)", c.text(), a.text(), b.text()),
        }
    }

    fn eval(&self, x: &[Val], s: &[bool]) -> bool {
        let member = |v: Val| UNIVERSE.iter().position(|&u| u == v).is_some_and(|k| s[k]);
        match self {
            C::Rel(a, op, b) => match (a.eval(x, s), b.eval(x, s)) {
                (Some(a), Some(b)) => compare(a, op, b),
                _ => false,
            },
            C::InConst(e, values) => e.eval(x, s).is_some_and(|v| values.contains(&v)),
            C::InSet(e) => e.eval(x, s).is_some_and(member),
            C::Card(op, k) => compare(s.iter().filter(|&&m| m).count() as Val, op, *k),
            C::Subset(true, values) => UNIVERSE.iter().all(|&u| !member(u) || values.contains(&u)),
            C::Subset(false, values) => values.iter().all(|&v| member(v)),
            C::Not(c) => !c.eval(x, s),
            C::Bin(a, op, b) => {
                let (a, b) = (a.eval(x, s), b.eval(x, s));
                match *op {
                    "and" => a && b,
                    "or" => a || b,
                    "->" => !a || b,
                    _ => a != b,
                }
            }
            C::If(c, a, b) => {
                if c.eval(x, s) {
                    a.eval(x, s)
                } else {
                    b.eval(x, s)
                }
            }
        }
    }
}

fn small_set() -> impl Strategy<Value = Vec<Val>> {
    prop::collection::btree_set(-1i64..=4, 0..=3).prop_map(|s| s.into_iter().collect())
}

fn rel() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["==", "!=", "<", "<=", ">", ">="])
}

fn condition() -> impl Strategy<Value = C> {
    let expr_leaf = prop_oneof![(-2i64..=4).prop_map(E::Const), (0..VARS).prop_map(E::Var)];
    let expr = expr_leaf.prop_recursive(2, 6, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| E::Add(Box::new(a), Box::new(b))),
            inner.clone().prop_map(|e| E::Cell(Box::new(e))),
            ((0..VARS), rel(), -1i64..=3, inner.clone(), inner).prop_map(|(v, op, k, a, b)| E::If(
                Box::new(C::Rel(E::Var(v), op, E::Const(k))),
                Box::new(a),
                Box::new(b)
            )),
        ]
    });
    let leaf = prop_oneof![
        (expr.clone(), rel(), expr.clone()).prop_map(|(a, op, b)| C::Rel(a, op, b)),
        (expr.clone(), small_set()).prop_map(|(e, s)| C::InConst(e, s)),
        expr.prop_map(C::InSet),
        (rel(), 0i64..=3).prop_map(|(op, k)| C::Card(op, k)),
        (any::<bool>(), small_set()).prop_map(|(b, s)| C::Subset(b, s)),
    ];
    leaf.prop_recursive(2, 6, 3, |inner| {
        prop_oneof![
            inner.clone().prop_map(|c| C::Not(Box::new(c))),
            (inner.clone(), prop::sample::select(vec!["and", "or", "->", "xor"]), inner.clone())
                .prop_map(|(a, op, b)| C::Bin(Box::new(a), op, Box::new(b))),
            (inner.clone(), inner.clone(), inner).prop_map(|(c, a, b)| C::If(Box::new(c), Box::new(a), Box::new(b))),
        ]
    })
}

/// The number of solutions. A constant without a value in a top-level statement is an
/// error of the model; MiniZinc makes that statement false, so no assignment satisfies it
/// (counted as 0).
fn count(source: &str) -> u128 {
    common::count_solutions(source, |message| {
        message.contains("out of range") || message.contains("outside the array's range")
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn conditions_with_if_membership_and_sets_match_brute_force(
        lo in -2i64..=1,
        width in 0i64..=4,
        conditions in prop::collection::vec(condition(), 1..3),
    ) {
        let hi = lo + width;
        let mut source = format!("let a = [{}, {}, {}]\n", A[0], A[1], A[2]);
        for i in 0..VARS {
            source.push_str(&format!("var x{i} in {lo}..{hi}\n"));
        }
        source.push_str("var s in set of 1..3\n");
        for c in &conditions {
            source.push_str(&c.text());
            source.push('\n');
        }
        source.push_str("solve count\n");
        let mut expected = 0u128;
        for x0 in lo..=hi {
            for x1 in lo..=hi {
                for bits in 0..8u32 {
                    let s = [bits & 1 != 0, bits & 2 != 0, bits & 4 != 0];
                    if conditions.iter().all(|c| c.eval(&[x0, x1], &s)) {
                        expected += 1;
                    }
                }
            }
        }
        prop_assert_eq!(count(&source), expected, "{}", source);
    }
}
