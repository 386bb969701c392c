//! Search annotations: `int_search`, `bool_search` and `seq_search` turned into the engine's
//! branching groups, and cpsolve's own search for free search.
//!
//! `int_search(xs, varsel, valsel, complete)` becomes one group: the engine picks among the
//! unfixed variables of `xs` by `varsel` and splits by `valsel`. `seq_search([s1, s2, ...])`
//! is the groups of `s1`, then of `s2`, ... (the engine tries groups in order). Choices the
//! engine does not know are reported as warnings and replaced by the nearest it knows, so
//! a model with an exotic annotation still runs.

use std::collections::HashSet;

use cpsolve_engine::{Branching, ValOrder, VarId, VarOrder};
use flatzinc_serde::{Annotation, AnnotationArgument, AnnotationLiteral, FlatZinc, Method};

use crate::compile::{Compiler, Result};
use crate::model::{Arg, Term};

fn var_order(name: &str) -> Option<VarOrder> {
    Some(match name {
        "input_order" => VarOrder::Input,
        "first_fail" => VarOrder::SmallestDomain,
        "anti_first_fail" => VarOrder::LargestDomain,
        "smallest" => VarOrder::SmallestMin,
        "largest" => VarOrder::LargestMax,
        "occurrence" => VarOrder::Occurrence,
        "most_constrained" => VarOrder::MostConstrained,
        "max_regret" => VarOrder::MaxRegret,
        "dom_w_deg" => VarOrder::DomWdeg,
        _ => return None,
    })
}

fn val_order(name: &str) -> Option<ValOrder> {
    Some(match name {
        "indomain_min" | "indomain" => ValOrder::Min,
        "indomain_max" => ValOrder::Max,
        "indomain_median" => ValOrder::Median,
        "indomain_middle" => ValOrder::MiddleOut,
        "indomain_split" | "indomain_interval" => ValOrder::Split,
        "indomain_reverse_split" => ValOrder::ReverseSplit,
        _ => return None,
    })
}

impl Compiler<'_> {
    /// The branching groups of the solve item's search annotations (empty if none).
    pub(crate) fn search_annotations(&self, anns: &[Annotation], warnings: &mut Vec<String>) -> Result<Vec<Branching>> {
        let mut groups = Vec::new();
        for ann in anns {
            self.search_annotation(ann, &mut groups, warnings)?;
        }
        Ok(groups)
    }

    fn search_annotation(
        &self,
        ann: &Annotation,
        groups: &mut Vec<Branching>,
        warnings: &mut Vec<String>,
    ) -> Result<()> {
        let Annotation::Call(call) = ann else {
            return Ok(());
        };
        match call.id.as_str() {
            "seq_search" | "warm_start_array" => {
                if call.id == "warm_start_array" {
                    warnings.push("warm_start_array is ignored".into());
                    return Ok(());
                }
                for arg in &call.args {
                    let items: Vec<AnnotationLiteral> = match arg {
                        AnnotationArgument::Array(items) => items.clone(),
                        AnnotationArgument::Literal(item) => vec![item.clone()],
                        AnnotationArgument::ArrayNamed(_) => Vec::new(),
                    };
                    for item in items {
                        if let AnnotationLiteral::Annotation(inner) = item {
                            self.search_annotation(&inner, groups, warnings)?;
                        }
                    }
                }
            }
            "int_search" | "bool_search" => {
                let vars = self.annotation_vars(call.args.first())?;
                let atom = |i: usize| match call.args.get(i) {
                    Some(AnnotationArgument::Literal(AnnotationLiteral::Annotation(Annotation::Atom(a)))) => {
                        Some(a.clone())
                    }
                    _ => None,
                };
                let var_choice = atom(1).unwrap_or_default();
                let val_choice = atom(2).unwrap_or_default();
                let var_order = var_order(&var_choice).unwrap_or_else(|| {
                    warnings.push(format!("variable choice `{var_choice}` is not supported; using input_order"));
                    VarOrder::Input
                });
                let val_order = val_order(&val_choice).unwrap_or_else(|| {
                    warnings.push(format!("value choice `{val_choice}` is not supported; using indomain_min"));
                    ValOrder::Min
                });
                if !vars.is_empty() {
                    groups.push(Branching { vars, var_order, val_order });
                }
            }
            other if other.ends_with("_search") => {
                warnings.push(format!("search annotation `{other}` is not supported; ignored"));
            }
            // restart_*, other solver annotations: nothing to do.
            _ => {}
        }
        Ok(())
    }

    fn annotation_vars(&self, arg: Option<&AnnotationArgument>) -> Result<Vec<VarId>> {
        let names: Vec<String> = match arg {
            Some(AnnotationArgument::Array(items)) => items
                .iter()
                .filter_map(|item| match item {
                    AnnotationLiteral::Variable(v) => v.upgrade().map(|v| v.name.clone()),
                    _ => None,
                })
                .collect(),
            Some(AnnotationArgument::ArrayNamed(a)) => a
                .upgrade()
                .map(|a| {
                    a.contents
                        .iter()
                        .filter_map(|l| match l {
                            flatzinc_serde::Literal::Variable(v) => Some(v.name.clone()),
                            _ => None,
                        })
                        .collect()
                })
                .unwrap_or_default(),
            Some(AnnotationArgument::Literal(AnnotationLiteral::Variable(v))) => {
                v.upgrade().map(|v| vec![v.name.clone()]).unwrap_or_default()
            }
            _ => Vec::new(),
        };
        let mut seen = HashSet::new();
        Ok(names
            .iter()
            .filter_map(|n| match self.vars.get(n) {
                Some(Term::Var(x)) => Some(*x),
                _ => None,
            })
            .filter(|x| seen.insert(*x))
            .collect())
    }

    /// cpsolve's own search: dom/wdeg (Boussemart et al. 2004) over the variables the model
    /// declares (not those MiniZinc introduced or defines by a constraint), smallest value
    /// first; then the same over every other variable.
    ///
    /// When the objective counts 0/1 variables (an error count, violations: its defining
    /// constraint is a linear sum of them in one direction), those come first, each towards
    /// the value that improves the objective (see [`Compiler::objective_count`]); the
    /// second result says so.
    pub(crate) fn free_search(&self, fzn: &FlatZinc) -> (Vec<Branching>, bool) {
        let mut decision = Vec::new();
        let mut rest = Vec::new();
        let mut seen = HashSet::new();
        for var in &fzn.variables {
            if let Some(Term::Var(x)) = self.vars.get(&var.name) {
                if !seen.insert(*x) {
                    continue;
                }
                if var.introduced || var.defined {
                    rest.push(*x);
                } else {
                    decision.push(*x);
                }
            }
        }
        let mut groups = Vec::new();
        let count = self.objective_count(fzn);
        let leads = count.is_some();
        if let Some((vars, val_order)) = count {
            groups.push(Branching { vars, var_order: VarOrder::DomWdeg, val_order });
        }
        for vars in [decision, rest] {
            if !vars.is_empty() {
                groups.push(Branching { vars, var_order: VarOrder::DomWdeg, val_order: ValOrder::Min });
            }
        }
        (groups, leads)
    }

    /// The 0/1 variables the objective counts, and the value of each that improves it:
    /// the objective's defining constraint (`defines_var`) is `int_lin_eq` or `bool_lin_eq`
    /// over at least two of them, all pushing the objective the same way. Deciding them
    /// first is deciding where the cost goes, as MaxSAT solvers branch on their soft
    /// clauses' relaxation variables: with the rest of the model propagated from them, a
    /// bound on the count prunes at once (a parity learned from noisy samples: which
    /// samples are wrong, not which bits the parity has).
    pub(crate) fn objective_count(&self, fzn: &FlatZinc) -> Option<(Vec<VarId>, ValOrder)> {
        let (lit, minimize) = match &fzn.solve.method {
            Method::Minimize(lit) => (lit, true),
            Method::Maximize(lit) => (lit, false),
            Method::Satisfy => return None,
        };
        let Ok(Term::Var(goal)) = self.literal(lit) else { return None };
        let defines_goal = |c: &&flatzinc_serde::Constraint| {
            c.defines.as_ref().is_some_and(|d| self.vars.get(d.name()) == Some(&Term::Var(goal)))
        };
        let c = fzn
            .constraints
            .iter()
            .filter(|c| matches!(c.id.as_str(), "int_lin_eq" | "bool_lin_eq"))
            .find(defines_goal)?;
        let (Some(Ok(Arg::Array(coefs))), Some(Ok(Arg::Array(terms)))) =
            (c.args.first().map(|a| self.argument(a)), c.args.get(1).map(|a| self.argument(a)))
        else {
            return None;
        };
        let coef = |t: &Term| match t {
            Term::Const(c) => Some(*c),
            Term::Var(_) => None,
        };
        let goal_coef = terms.iter().zip(&coefs).find(|(t, _)| **t == Term::Var(goal)).and_then(|(_, a)| coef(a))?;
        let mut vars = Vec::new();
        let mut lower_first = None;
        for (t, a) in terms.iter().zip(&coefs) {
            let (Term::Var(x), Some(a)) = (*t, coef(a)) else { continue };
            if x == goal || a == 0 {
                continue;
            }
            if self.solver.min(x) < 0 || self.solver.max(x) > 1 {
                return None;
            }
            // goal = (rhs − Σ aᵢ·xᵢ) / a_goal: raising x moves the goal by the sign of −a·a_goal.
            let raises = (a > 0) != (goal_coef > 0);
            let lower = raises == minimize;
            if *lower_first.get_or_insert(lower) != lower {
                return None;
            }
            vars.push(x);
        }
        let lower = lower_first?;
        (vars.len() >= 2).then_some((vars, if lower { ValOrder::Min } else { ValOrder::Max }))
    }
}
