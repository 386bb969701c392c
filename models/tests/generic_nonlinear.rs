//! Random models with non-linear expressions (products, `div`/`mod`, `abs`, `min`/`max`,
//! conditions used as numbers, `and`/`or`/`not`/`->`/`<->`, `count`, array cells with a
//! variable index, `table`) against brute force: the model text is written the way a user
//! would, and the number of solutions must equal the number of assignments that an
//! independent evaluator of the same expressions accepts.
//!
//! Semantics checked: integer division truncates (`mod` takes the dividend's sign); an
//! array access outside the array's range has no value, and MiniZinc's relational
//! semantics apply: the nearest relation around it is false (so at the top level the
//! assignment is no solution, under `not` or `->` the condition is simply false there). A
//! constant access out of range in a top-level relation is an error of the model, which
//! no assignment satisfies (counted as 0).

mod common;

use cpsolve_engine::Val;
use proptest::prelude::*;

const VARS: usize = 3;
const CELLS: usize = 3;

#[derive(Debug, Clone)]
enum E {
    Const(Val),
    Var(usize),
    /// `q[e]`, q indexed 1..CELLS
    Cell(Box<E>),
    Add(Box<E>, Box<E>),
    Mul(Box<E>, Box<E>),
    Div(Box<E>, Val),
    Mod(Box<E>, Val),
    Abs(Box<E>),
    Min(Vec<E>),
    Max(Vec<E>),
    Count(Val),
    Truth(Box<C>),
}

#[derive(Debug, Clone)]
enum C {
    Rel(Box<E>, &'static str, Box<E>),
    Not(Box<C>),
    Bin(Box<C>, &'static str, Box<C>),
}

/// A value, or the index of an access out of range (the assignment is no solution).
type Eval = Result<Val, ()>;

impl E {
    fn text(&self) -> String {
        match self {
            E::Const(v) => format!("{v}"),
            E::Var(i) => format!("x{i}"),
            E::Cell(e) => format!("q[{}]", e.text()),
            E::Add(a, b) => format!("({} + {})", a.text(), b.text()),
            E::Mul(a, b) => format!("({} * {})", a.text(), b.text()),
            E::Div(a, k) => format!("({} div {k})", a.text()),
            E::Mod(a, k) => format!("({} mod {k})", a.text()),
            E::Abs(a) => format!("abs({})", a.text()),
            E::Min(items) => format!("min({})", items.iter().map(E::text).collect::<Vec<_>>().join(", ")),
            E::Max(items) => format!("max([{}])", items.iter().map(E::text).collect::<Vec<_>>().join(", ")),
            E::Count(v) => format!("count(q, {v})"),
            E::Truth(c) => format!("bool2int({})", c.text()),
        }
    }

    fn eval(&self, x: &[Val], q: &[Val]) -> Eval {
        Ok(match self {
            E::Const(v) => *v,
            E::Var(i) => x[*i],
            E::Cell(e) => {
                let i = e.eval(x, q)?;
                if i < 1 || i > CELLS as Val {
                    return Err(());
                }
                q[(i - 1) as usize]
            }
            E::Add(a, b) => a.eval(x, q)? + b.eval(x, q)?,
            E::Mul(a, b) => a.eval(x, q)? * b.eval(x, q)?,
            E::Div(a, k) => a.eval(x, q)? / k,
            E::Mod(a, k) => a.eval(x, q)? % k,
            E::Abs(a) => a.eval(x, q)?.abs(),
            E::Min(items) => {
                items.iter().map(|e| e.eval(x, q)).collect::<Result<Vec<_>, ()>>()?.into_iter().min().unwrap_or(0)
            }
            E::Max(items) => {
                items.iter().map(|e| e.eval(x, q)).collect::<Result<Vec<_>, ()>>()?.into_iter().max().unwrap_or(0)
            }
            E::Count(v) => q.iter().filter(|&&c| c == *v).count() as Val,
            E::Truth(c) => Val::from(c.eval(x, q)),
        })
    }
}

impl C {
    /// A constraint statement holds where its condition does.
    fn holds(&self, x: &[Val], q: &[Val]) -> Result<bool, ()> {
        Ok(self.eval(x, q))
    }

    /// A relation with a part that has no value is false; the connectives then combine
    /// truth values that always exist.
    fn eval(&self, x: &[Val], q: &[Val]) -> bool {
        match self {
            C::Rel(a, op, b) => match (a.eval(x, q), b.eval(x, q)) {
                (Ok(a), Ok(b)) => match *op {
                    "==" => a == b,
                    "!=" => a != b,
                    "<" => a < b,
                    "<=" => a <= b,
                    ">" => a > b,
                    _ => a >= b,
                },
                _ => false,
            },
            C::Not(c) => !c.eval(x, q),
            C::Bin(a, op, b) => {
                let (a, b) = (a.eval(x, q), b.eval(x, q));
                match *op {
                    "and" => a && b,
                    "or" => a || b,
                    "->" => !a || b,
                    _ => a == b,
                }
            }
        }
    }

    fn text(&self) -> String {
        match self {
            C::Rel(a, op, b) => format!("({} {op} {})", a.text(), b.text()),
            C::Not(c) => format!("not ({})", c.text()),
            C::Bin(a, op, b) => format!("({} {op} {})", a.text(), b.text()),
        }
    }
}

fn expr() -> impl Strategy<Value = E> {
    let leaf = prop_oneof![(-3i64..=3).prop_map(E::Const), (0..VARS).prop_map(E::Var), (0..=3i64).prop_map(E::Count)];
    leaf.prop_recursive(3, 12, 3, |inner| {
        let divisor = prop_oneof![Just(-2i64), Just(2), Just(3)];
        prop_oneof![
            inner.clone().prop_map(|e| E::Cell(Box::new(e))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| E::Add(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| E::Mul(Box::new(a), Box::new(b))),
            (inner.clone(), divisor.clone()).prop_map(|(a, k)| E::Div(Box::new(a), k)),
            (inner.clone(), divisor).prop_map(|(a, k)| E::Mod(Box::new(a), k)),
            inner.clone().prop_map(|a| E::Abs(Box::new(a))),
            prop::collection::vec(inner.clone(), 1..3).prop_map(E::Min),
            prop::collection::vec(inner.clone(), 1..3).prop_map(E::Max),
            (inner.clone(), rel(), inner).prop_map(|(a, op, b)| E::Truth(Box::new(C::Rel(
                Box::new(a),
                op,
                Box::new(b)
            )))),
        ]
    })
}

fn rel() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["==", "!=", "<", "<=", ">", ">="])
}

fn condition() -> impl Strategy<Value = C> {
    let relation = (expr(), rel(), expr()).prop_map(|(a, op, b)| C::Rel(Box::new(a), op, Box::new(b)));
    relation.prop_recursive(2, 6, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|c| C::Not(Box::new(c))),
            (inner.clone(), prop::sample::select(vec!["and", "or", "->", "<->"]), inner).prop_map(|(a, op, b)| C::Bin(
                Box::new(a),
                op,
                Box::new(b)
            )),
        ]
    })
}

fn domain() -> impl Strategy<Value = (Val, Val)> {
    (-2i64..=2, 0i64..=3).prop_map(|(lo, w)| (lo, lo + w))
}

fn assignments(domains: &[(Val, Val)]) -> Vec<Vec<Val>> {
    let mut all: Vec<Vec<Val>> = vec![vec![]];
    for &(lo, hi) in domains {
        all = all.into_iter().flat_map(|a| (lo..=hi).map(move |v| [a.clone(), vec![v]].concat())).collect();
    }
    all
}

/// The number of solutions; a constant index out of range in a top-level relation is an
/// error of the model, which no assignment satisfies (counted as 0).
fn count(source: &str) -> u128 {
    common::count_solutions(source, |message| message.contains("is out of range"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn nonlinear_models_match_brute_force(
        x_domains in prop::collection::vec(domain(), VARS),
        q_domain in domain(),
        conditions in prop::collection::vec(condition(), 1..3),
        tuples in prop::option::of(prop::collection::vec(prop::collection::vec(-2i64..=3, 2), 0..6)),
    ) {
        let mut source = String::new();
        for (i, (lo, hi)) in x_domains.iter().enumerate() {
            source.push_str(&format!("var x{i} in {lo}..{hi}\n"));
        }
        source.push_str(&format!("var q[1..{CELLS}] in {}..{}\n", q_domain.0, q_domain.1));
        for c in &conditions {
            source.push_str(&c.text());
            source.push('\n');
        }
        if let Some(tuples) = &tuples {
            let rows: Vec<String> = tuples.iter().map(|t| format!("[{}, {}]", t[0], t[1])).collect();
            source.push_str(&format!("table([x0, q[2]], [{}])\n", rows.join(", ")));
        }
        source.push_str("solve count\n");
        let mut domains = x_domains.clone();
        domains.extend(std::iter::repeat_n(q_domain, CELLS));
        let expected = assignments(&domains)
            .iter()
            .filter(|values| {
                let (x, q) = values.split_at(VARS);
                conditions.iter().all(|c| c.holds(x, q) == Ok(true))
                    && tuples.as_ref().is_none_or(|ts| ts.iter().any(|t| t[0] == x[0] && t[1] == q[1]))
            })
            .count() as u128;
        prop_assert_eq!(count(&source), expected, "{}", source);
    }
}
