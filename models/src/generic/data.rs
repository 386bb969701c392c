//! MiniZinc's data lines: a constant declared without its value (`int: n;`,
//! `array[1..n] of int: d;`, `set of int: S;`) takes the value of an assignment `n = …`
//! elsewhere in the model, typically the contents of a `.dzn` file pasted at its end.
//!
//! Since a `.puz` file is read top to bottom, the value moves to the declaration: the
//! declaration becomes `let n = …` where it stands, and the assignment is dropped. The value
//! may use the constants declared before the declaration, as a data file's literals do. A
//! declaration that no assignment gives stays, and the compiler reports it where it stands.
//! An assignment is a top-level `n = …` (or `n == …`) whose left side is such a constant;
//! the first one binds, a second one stays a constraint that checks the value.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use cpsolve_dsl::ast::{BinaryOp, Expr, File, Item, Spanned};

/// `file` with its data lines bound to their declarations (borrowed when it has none).
pub(crate) fn bind(file: &File) -> Cow<'_, File> {
    let declared: HashMap<&str, usize> = file
        .items
        .iter()
        .enumerate()
        .filter_map(|(at, item)| match &item.node {
            Item::Param { name, .. } => Some((name.node.as_str(), at)),
            _ => None,
        })
        .collect();
    if declared.is_empty() {
        return Cow::Borrowed(file);
    }
    // Declaration index → the index of its assignment and the value it gives.
    let mut assigned: HashMap<usize, (usize, &Spanned<Expr>)> = HashMap::new();
    for (at, item) in file.items.iter().enumerate() {
        if let Some((declaration, value)) =
            assignment(&item.node).and_then(|(name, value)| Some((*declared.get(name)?, value)))
        {
            assigned.entry(declaration).or_insert((at, value));
        }
    }
    let dropped: HashSet<usize> = assigned.values().map(|&(at, _)| at).collect();
    let items = file
        .items
        .iter()
        .enumerate()
        .filter(|(at, _)| !dropped.contains(at))
        .map(|(at, item)| match (&item.node, assigned.get(&at)) {
            (Item::Param { name, dims }, Some(&(_, value))) => {
                let node = Item::Let { name: name.clone(), dims: dims.clone(), value: value.clone() };
                Spanned::new(node, item.span.clone())
            }
            _ => item.clone(),
        })
        .collect();
    Cow::Owned(File { items })
}

/// The name and value of `NAME = VALUE` standing as a statement.
fn assignment(item: &Item) -> Option<(&str, &Spanned<Expr>)> {
    match item {
        Item::Constraint(Spanned { node: Expr::Binary { op: BinaryOp::Eq, lhs, rhs }, .. }) => match &lhs.node {
            Expr::Name(name) => Some((name.as_str(), rhs)),
            _ => None,
        },
        _ => None,
    }
}
