//! `search` lines: MiniZinc's search annotations, `int_search(vars, varsel, valsel)` (also
//! `bool_search`, and a fourth argument `complete`, which is the only strategy there is)
//! and `seq_search([…])`, which branches on each group in turn. Every variable selection
//! and value choice of MiniZinc's `int_search` that the engine has is accepted; variables
//! no group names are decided after the groups (the engine's rule). `set_search(S, varsel,
//! valsel)` branches on the membership of each value in the sets `S` (a set variable is
//! one 0/1 variable per value of its universe: `sets.rs`). MiniZinc's `solve :: A :: B`
//! gives the same annotations in the place MiniZinc has for them: its search annotations
//! are one `search` line, and the others are left out, as a MiniZinc solver leaves out the
//! annotations it does not know.

use cpsolve_dsl::ast::{Expr, Spanned};
use cpsolve_dsl::Diagnostic;
use cpsolve_engine::{Branching, ValOrder, VarOrder};

use super::errors::{expected, Result};
use super::Compiler;

/// MiniZinc's variable selections, and the engine's order for each.
const VAR_ORDERS: &[(&str, VarOrder)] = &[
    ("input_order", VarOrder::Input),
    ("first_fail", VarOrder::SmallestDomain),
    ("anti_first_fail", VarOrder::LargestDomain),
    ("smallest", VarOrder::SmallestMin),
    ("largest", VarOrder::LargestMax),
    ("occurrence", VarOrder::Occurrence),
    ("most_constrained", VarOrder::MostConstrained),
    ("max_regret", VarOrder::MaxRegret),
    ("dom_w_deg", VarOrder::DomWdeg),
];

/// MiniZinc's value choices, and the engine's order for each.
const VAL_ORDERS: &[(&str, ValOrder)] = &[
    ("indomain_min", ValOrder::Min),
    ("indomain", ValOrder::Min),
    ("indomain_max", ValOrder::Max),
    ("indomain_middle", ValOrder::MiddleOut),
    ("indomain_median", ValOrder::Median),
    ("indomain_split", ValOrder::Split),
    ("indomain_reverse_split", ValOrder::ReverseSplit),
];

/// MiniZinc's value choices of `set_search`, as Gecode reads them: which member is decided
/// first (the least value, or the greatest: `descending`), and whether the first branch
/// puts it in the set (`include`) or leaves it out.
const SET_VAL_ORDERS: &[(&str, (bool, bool))] = &[
    ("indomain_min", (false, true)),
    ("indomain_max", (true, true)),
    ("outdomain_min", (false, false)),
    ("outdomain_max", (true, false)),
];

impl Compiler {
    pub(crate) fn set_search(&mut self, annotation: &Spanned<Expr>) -> Result<()> {
        self.set_search_of(std::slice::from_ref(annotation))
    }

    /// MiniZinc's `solve :: A :: B satisfy`: the search annotations among `A`, `B`, … are a
    /// `search` line, several of them searched in turn as by `seq_search`. The others
    /// (`restart_luby(100)`, a solver's own) are left out, as a MiniZinc solver leaves out
    /// the annotations it does not know.
    pub(crate) fn solve_annotations(&mut self, annotations: &[Spanned<Expr>]) -> Result<()> {
        let searches: Vec<Spanned<Expr>> =
            annotations.iter().filter(|annotation| is_search_annotation(annotation)).cloned().collect();
        if searches.is_empty() {
            return Ok(());
        }
        self.set_search_of(&searches)
    }

    /// The search of one `search` line, or of the searches of one `solve ::`, in turn.
    fn set_search_of(&mut self, annotations: &[Spanned<Expr>]) -> Result<()> {
        if let (Some(_), Some(first)) = (&self.search, annotations.first()) {
            return Err(Diagnostic::new("`search` is given twice", first.span.clone())
                .with_label("a model has one search")
                .with_note("to search groups in turn, write `search seq_search([int_search(…), int_search(…)])`")
                .into());
        }
        let mut groups = Vec::new();
        for annotation in annotations {
            self.search_groups(annotation, &mut groups)?;
        }
        self.search = Some(groups);
        Ok(())
    }

    fn search_groups(&mut self, annotation: &Spanned<Expr>, groups: &mut Vec<Branching>) -> Result<()> {
        let Expr::Call { function, args } = &annotation.node else {
            return Err(expected(
                "a search annotation such as `int_search(x, first_fail, indomain_min)`",
                "something else",
                annotation.span.clone(),
            )
            .into());
        };
        match (function.node.as_str(), args.as_slice()) {
            ("seq_search", [list]) => match &list.node {
                Expr::List(items) => {
                    for item in items {
                        self.search_groups(item, groups)?;
                    }
                    Ok(())
                }
                _ => {
                    Err(expected("a list of searches `[int_search(…), …]`", "something else", list.span.clone()).into())
                }
            },
            ("int_search" | "bool_search", [vars, var_order, val_order, rest @ ..]) if rest.len() <= 1 => {
                if let Some(strategy) = rest.first() {
                    if !matches!(&strategy.node, Expr::Name(name) if name == "complete") {
                        return Err(expected("`complete`", "something else", strategy.span.clone()).into());
                    }
                }
                let var_order = choice(var_order, VAR_ORDERS, "variable selection")?;
                let val_order = choice(val_order, VAL_ORDERS, "value choice")?;
                let mut branched = Vec::new();
                for (lin, span) in self.list_elements(vars)? {
                    branched.push(self.var_of(&lin, &span)?);
                }
                groups.push(Branching { vars: branched, var_order, val_order });
                Ok(())
            }
            ("set_search", [sets, var_order, val_order, rest @ ..]) if rest.len() <= 1 => {
                if let Some(strategy) = rest.first() {
                    if !matches!(&strategy.node, Expr::Name(name) if name == "complete") {
                        return Err(expected("`complete`", "something else", strategy.span.clone()).into());
                    }
                }
                let var_order = choice(var_order, VAR_ORDERS, "variable selection")?;
                let (descending, include) = choice(val_order, SET_VAL_ORDERS, "set value choice")?;
                let mut branched = Vec::new();
                for mut members in self.set_members(sets)? {
                    if descending {
                        members.reverse();
                    }
                    for lin in members {
                        branched.push(self.var_of(&lin, &sets.span)?);
                    }
                }
                let val_order = if include { ValOrder::Max } else { ValOrder::Min };
                groups.push(Branching { vars: branched, var_order, val_order });
                Ok(())
            }
            (name @ ("int_search" | "bool_search" | "set_search"), _) => Err(Diagnostic::new(
                format!("`{name}` takes 3 arguments (or 4 with `complete`), not {}", args.len()),
                annotation.span.clone(),
            )
            .with_note(format!("the form is `{name}(x, first_fail, indomain_min)`"))
            .into()),
            (name, _) if name.starts_with("restart_") || name == "relax_and_reconstruct" => {
                Err(super::errors::not_supported(format!("the search annotation `{name}`"), function.span.clone())
                    .into())
            }
            (name, _) => Err(Diagnostic::new(format!("unknown search annotation `{name}`"), function.span.clone())
                .with_note("the searches are `int_search(x, VARSEL, VALSEL)`, `bool_search(…)`, `set_search(…)` and `seq_search([…])`")
                .into()),
        }
    }
}

/// The annotations a `search` line takes: the ones that choose the branching.
const SEARCHES: &[&str] = &["int_search", "bool_search", "set_search", "seq_search"];

/// Whether an annotation after `solve ::` chooses the branching (and is compiled as a
/// `search` line); any other is left out.
fn is_search_annotation(annotation: &Spanned<Expr>) -> bool {
    matches!(&annotation.node, Expr::Call { function, .. } if SEARCHES.contains(&function.node.as_str()))
}

/// The order a name stands for, or the error listing the names.
fn choice<T: Copy>(arg: &Spanned<Expr>, table: &[(&str, T)], what: &str) -> Result<T> {
    let names: Vec<String> = table.iter().map(|(name, _)| format!("`{name}`")).collect();
    let Expr::Name(name) = &arg.node else {
        return Err(expected(&format!("a {what}"), "something else", arg.span.clone())
            .with_note(format!("one of {}", names.join(", ")))
            .into());
    };
    table.iter().find(|(n, _)| n == name).map(|&(_, order)| order).ok_or_else(|| {
        Diagnostic::new(format!("unknown {what} `{name}`"), arg.span.clone())
            .with_note(format!("one of {}", names.join(", ")))
            .into()
    })
}
