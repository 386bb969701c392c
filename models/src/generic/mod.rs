//! The generic-model compiler: a `.puz` file of `let`, `var`, constraints, `forall`,
//! `given`, `solve` and `minimize`/`maximize` statements (docs/language.md, "Generic models") becomes engine
//! variables and propagators, with a view that prints the user's variables.
//!
//! The file is read top to bottom, like a script: a name must be declared before it is
//! used, and each statement is compiled as soon as it is read. Every integer expression
//! is linear, so the whole compiler rests on one idea: turn an expression into
//! `Σ aᵢ·xᵢ + c` (`linear.rs`); constants are the forms without terms. Errors do not stop
//! the compilation of later statements, so one run reports the faults of several lines.
//!
//! Files, one job each: `env.rs` names and scopes, `shape.rs` array indexing, `decl.rs`
//! `let`/`var`, `arrays.rs` MiniZinc's `arrayNd` and declared index sets, `linear.rs` expressions, `functions.rs` built-in functions, `eval.rs`
//! conditions, `lists.rs` lists and comprehensions, `generators.rs` generator loops,
//! `post.rs` constraints, `given.rs` grids, `goal.rs` mode, objective and options,
//! `view.rs` output, `wrappers.rs` MiniZinc's constraint wrappers, `data.rs` MiniZinc's data
//! lines, `errors.rs` the wording of errors.

mod arrays;
mod conditional;
mod data;
mod decl;
mod enums;
mod env;
mod errors;
mod eval;
mod functions;
mod generators;
mod given;
mod global_calls;
mod globals;
mod goal;
mod linear;
mod lists;
mod names;
mod nonlinear;
mod partial;
mod picture;
mod post;
mod reify;
mod scope;
mod search;
mod sets;
mod shape;
mod view;
mod wrappers;

use std::collections::HashSet;

use cpsolve_dsl::ast::{self, Item, SolveMode, Span, Spanned};
use cpsolve_dsl::Diagnostic;
use cpsolve_engine::{Branching, Consistency, SearchConfig, Sense, Solver, StopToken, ValOrder, VarId, VarOrder};

use crate::explain::{NamedConstraint, Vocabulary};
use crate::problem::{Kind, Problem};
use env::{Decl, Env};
use errors::Fault;
use view::ModelView;

/// Compiles a generic model. On failure, returns every error found, in source order.
pub fn compile(file: &ast::File) -> Result<Problem, Vec<Diagnostic>> {
    compile_with_stop(file, &StopToken::new())
}

/// As [`compile`], for a run stopped by requests on `stop` (see
/// [`crate::compile_with_stop`]).
pub fn compile_with_stop(file: &ast::File, stop: &StopToken) -> Result<Problem, Vec<Diagnostic>> {
    let file = &*data::bind(file);
    crate::compile::repeated_options(file)?;
    let mut compiler = Compiler::default();
    compiler.solver.set_stop_token(stop.clone());
    // Predicates and functions first, so that a call may stand above its definition
    // (MiniZinc's order is free). A body is compiled where it is called, so declaring it
    // early changes nothing else.
    let (functions, rest): (Vec<_>, Vec<_>) =
        file.items.iter().partition(|item| matches!(item.node, Item::Function { .. }));
    for item in functions.into_iter().chain(rest) {
        if let Err(fault) = compiler.item(item) {
            compiler.report(fault);
        }
        // After a limit struck, the next items would only run on until it strikes again
        // (a large global's post does not look at the clock). The items so far are not
        // the model: searching them would answer another question (limits_proptest found
        // `--timeout 0` printing one solution of no variables, exit 0).
        if stop.requested().is_some() {
            return Err(crate::compile::stopped_while_compiling());
        }
    }
    // Checked last: the faults of the statements a model does have say more.
    if compiler.errors.is_empty() {
        if let Some(empty) = nothing_to_solve(file) {
            return Err(vec![empty]);
        }
    }
    compiler.finish()
}

/// A model that declares no variable and states no constraint (an empty file, or only
/// `solve`, `option` or `let` lines) has nothing to solve: "solved, with the empty
/// solution" would only hide a mistake (the wrong file, a model left unwritten). A model
/// whose constraints are all over constants is not this case: it is a check of its
/// constants, and its answer (they hold, or "no solution") means something.
fn nothing_to_solve(file: &ast::File) -> Option<Diagnostic> {
    let solvable = |item: &Item| {
        matches!(item, Item::Var { .. } | Item::Defined { .. } | Item::Constraint(_) | Item::Forall { .. })
    };
    if file.items.iter().any(|item| solvable(&item.node)) {
        return None;
    }
    let at = file.items.first().map_or(0..0, |item| item.span.clone());
    Some(
        Diagnostic::new("the model declares no variable", at)
            .with_label("nothing to solve")
            .with_note("declare one (`var x in 1..9`), or state a puzzle (`queens n = 8`)"),
    )
}

/// The state of one compilation.
#[derive(Debug)]
pub(crate) struct Compiler {
    pub(crate) solver: Solver,
    pub(crate) env: Env,
    errors: Vec<Diagnostic>,
    pub(crate) mode: SolveMode,
    mode_span: Option<Span>,
    pub(crate) objective: Option<(VarId, Sense)>,
    objective_span: Option<Span>,
    pub(crate) var_order: VarOrder,
    pub(crate) val_order: ValOrder,
    /// Generator bindings made so far (see [`generators::MAX_BINDINGS`]).
    pub(crate) bindings: u64,
    /// All-different constraints, posted at the end (see [`globals`]).
    pub(crate) all_different: Vec<globals::AllDifferent>,
    /// `option alldifferent`; `None`: chosen per constraint (see [`globals`]).
    pub(crate) all_different_consistency: Option<Consistency>,
    /// The cells fixed by `given` grids (a picture tells them from found values).
    pub(crate) given_cells: HashSet<VarId>,
    /// One frame per enclosing condition: the truths under which its parts are defined
    /// (see `partial.rs`).
    pub(crate) partial: Vec<Vec<linear::Lin>>,
    /// How deep calls of user functions are nested now.
    pub(crate) call_depth: u32,
    /// The groups of a `search` line, if the model has one.
    pub(crate) search: Option<Vec<Branching>>,
    /// How many function bodies the form tests are looking into (see `scope.rs`).
    pub(crate) peeking: std::cell::Cell<u32>,
    /// The propagation strength the annotation of the statement being posted asks for
    /// (`:: domain`, `:: bounds`, `:: value_propagation`), if any.
    pub(crate) annotated: Option<Consistency>,
    /// The statement being posted, for the origin of an all-different posted later.
    pub(crate) statement: Option<Span>,
    /// What each constraint statement (or `forall` instance) posted, for `cpsolve explain`.
    pub(crate) posted: Vec<globals::Posted>,
}

impl Default for Compiler {
    fn default() -> Compiler {
        Compiler {
            solver: Solver::new(),
            env: Env::default(),
            errors: Vec::new(),
            mode: SolveMode::First,
            mode_span: None,
            objective: None,
            objective_span: None,
            // dom/wdeg (Boussemart et al. 2004), as in Choco: over the gallery it explores
            // 3.4× fewer nodes on Golomb rulers and 2.1× fewer on the 4×4 magic squares than
            // first fail, the same elsewhere within a few nodes (sudoku-hardest: 206 against
            // 102, both ≈ 10 ms); see bench/README.md, "Generic models".
            var_order: VarOrder::DomWdeg,
            val_order: ValOrder::Min,
            bindings: 0,
            all_different: Vec::new(),
            all_different_consistency: None,
            annotated: None,
            statement: None,
            posted: Vec::new(),
            given_cells: HashSet::new(),
            partial: Vec::new(),
            call_depth: 0,
            search: None,
            peeking: std::cell::Cell::new(0),
        }
    }
}

/// The set variables of a set declaration.
fn set_ids(decl: &Decl) -> Vec<usize> {
    match decl {
        Decl::SetVar(id) => vec![*id],
        Decl::SetArray { sets, .. } => sets.clone(),
        _ => Vec::new(),
    }
}

impl Compiler {
    fn item(&mut self, item: &Spanned<Item>) -> errors::Result<()> {
        match &item.node {
            Item::Let { name, dims, value } => self.declare_let(name, dims, value),
            Item::Param { name, .. } => {
                // Declared (invalid), so that its uses do not also say "unknown name".
                let _ = self.env.declare(name, env::Entity::Invalid);
                Err(Diagnostic::new(format!("`{}` has no value", name.node), name.span.clone())
                    .with_label("declared without a value")
                    .with_note(format!(
                        "give it with a data line `{} = …;` in the model (a `.dzn` file's lines can be pasted at its end)",
                        name.node
                    ))
                    .into())
            }
            Item::Var { decls, domain } => {
                self.declare_vars(decls, domain);
                Ok(())
            }
            Item::Constraint(expr) => self.post_statement(expr),
            Item::Forall { generators, body } => self.post_forall(generators, body),
            Item::Given { name, rows } => self.given(name, rows),
            Item::Solve(mode) => self.set_mode(mode),
            Item::Optimize { sense, objective } => self.set_objective(sense, objective),
            Item::Option { name, values } => self.set_option(name, values),
            Item::Function { .. } | Item::Enum { .. } => self.definition(item),
            Item::Search(annotation) => self.set_search(annotation),
            Item::SolveAnnotations(annotations) => self.solve_annotations(annotations),
            Item::Defined { name, dims, domain, value } => self.declare_defined(name, dims, domain.as_deref(), value),
            // The loader splices included files in place of their `include` (see the dsl
            // crate); one left here was not loaded.
            Item::Include(path) => Err(Diagnostic::new("`include` needs the file's directory", path.span.clone())
                .with_note("includes are read when the model comes from a file or standard input")
                .into()),
            Item::Cryptarithm { .. } | Item::Puzzle { .. } | Item::Compte { .. } => Err(Diagnostic::new(
                "a file holds one model: a puzzle statement cannot be mixed with a generic model",
                item.span.clone(),
            )
            .with_label("puzzle statement")
            .with_note("put the puzzle in a file of its own")
            .into()),
        }
    }

    /// The names of the model's constraints and variables, for `cpsolve explain`.
    fn vocabulary(&self) -> Vocabulary {
        let grids = names::Grids::new(&self.env);
        let constraints = self
            .posted
            .iter()
            .map(|(props, origin, all_different)| {
                let mut scope: Vec<VarId> = props.iter().flat_map(|&p| self.solver.propagator_vars(p)).collect();
                scope.sort_unstable();
                scope.dedup();
                NamedConstraint {
                    props: props.clone(),
                    name: names::region_name(&self.env, &grids, &scope).unwrap_or_default(),
                    says: None,
                    span: Some(origin.span.clone()),
                    bindings: origin.bindings.clone(),
                    all_different: all_different.clone(),
                }
            })
            .collect();
        let mut shown = Vec::new();
        for decl in &self.env.decls {
            match decl {
                Decl::Scalar(x) => shown.push((*x, self.env.var_name(*x))),
                Decl::Array(id) => {
                    let array = &self.env.arrays[*id];
                    shown.extend(array.cells.iter().enumerate().map(|(k, &x)| (x, self.env.cell_label(array, k))));
                }
                Decl::SetVar(_) | Decl::SetArray { .. } => {
                    for id in set_ids(decl) {
                        let set = &self.env.set_vars[id];
                        shown.extend(
                            set.universe.iter().zip(&set.members).map(|(u, &b)| (b, format!("{u} in {}", set.name))),
                        );
                    }
                }
            }
        }
        // Enum-valued variables show their values by name (value k is the k-th name).
        let value_names = shown
            .iter()
            .filter_map(|(x, _)| {
                let id = self.env.var_enums.get(x)?;
                Some((*x, std::sync::Arc::new(self.env.enums[*id].values.clone())))
            })
            .collect();
        Vocabulary { constraints, shown, value_names }
    }

    pub(crate) fn report(&mut self, fault: Fault) {
        if let Fault::Report(diagnostic) | Fault::Undefined(diagnostic) = fault {
            self.errors.push(diagnostic);
        }
    }

    fn finish(mut self) -> Result<Problem, Vec<Diagnostic>> {
        if let (Some(span), Some(_), SolveMode::All | SolveMode::Count) =
            (&self.mode_span, &self.objective_span, self.mode)
        {
            self.errors.push(
                Diagnostic::new(
                    "`solve all` and `solve count` do not apply to a model with an objective",
                    span.clone(),
                )
                .with_label("remove this line")
                .with_note("`minimize`/`maximize` prints each improving solution, then the proven optimum"),
            );
        }
        if !self.errors.is_empty() {
            let mut errors = self.errors;
            errors.sort_by_key(|d| (d.span.start, d.span.end));
            return Err(errors);
        }
        let pending = std::mem::take(&mut self.all_different);
        // The all-different scopes over plain cells are the regions a picture may draw.
        let regions: Vec<Vec<VarId>> = pending
            .iter()
            .filter(|(_, offsets, _, _)| offsets.iter().all(|&o| o == 0))
            .map(|(vars, _, _, _)| vars.clone())
            .collect();
        let posted = globals::post_all_different(&mut self.solver, pending, self.all_different_consistency);
        self.posted.extend(posted);
        let vocabulary = self.vocabulary();
        let view = ModelView::new(&self.env, &self.given_cells, &regions);
        let mut user_vars = Vec::new();
        for decl in &self.env.decls {
            match decl {
                Decl::Scalar(x) => user_vars.push(*x),
                Decl::Array(id) => user_vars.extend(&self.env.arrays[*id].cells),
                Decl::SetVar(_) | Decl::SetArray { .. } => {
                    for id in set_ids(decl) {
                        user_vars.extend(&self.env.set_vars[id].members);
                    }
                }
            }
        }
        // A `search` line's groups come first; the user's variables after them, in the
        // model's default order (the engine decides any variable left after that).
        let mut branching = self.search.take().unwrap_or_default();
        branching.push(Branching { vars: user_vars, var_order: self.var_order, val_order: self.val_order });
        Ok(Problem {
            kind: Kind::Model,
            solver: self.solver,
            // The solutions are the values of the model's own variables: local `var`s of a
            // `let` that nothing fixes do not multiply them (as MiniZinc counts them).
            search: SearchConfig { branching, objective: self.objective, project: true, ..SearchConfig::default() },
            mode: self.mode,
            unsat_reason: None,
            view: Box::new(view),
            vocabulary,
            first_portfolio: None,
        })
    }
}
