//! The cpsolve engine: finite-domain constraint solving, with no knowledge of puzzles.
//!
//! You create integer variables in a [`Solver`], post constraints on them with the
//! functions of [`constraints`], and [`Solver::search`] calls you back with every solution
//! (or counts them, or finds an optimum), within the [`Limits`] you set. The sections below
//! go through the API in that order; `examples/` in the crate holds whole programs
//! (SEND+MORE = MONEY, n-queens with a branching of your own, an optimisation).
//!
//! # A first program
//! Which digits `x` and `y` satisfy `x + 2·y = 12` with `x > y`?
//!
//! ```
//! use std::ops::ControlFlow;
//! use cpsolve_engine::constraints::linear;
//! use cpsolve_engine::{Rel, SearchConfig, Solver};
//!
//! let mut solver = Solver::new();
//! let x = solver.new_var(0, 9)?;
//! let y = solver.new_var(0, 9)?;
//! linear(&mut solver, &[(1, x), (2, y)], Rel::Eq, 12)?; // x + 2y = 12
//! linear(&mut solver, &[(1, x), (-1, y)], Rel::Gt, 0)?; // x − y > 0
//!
//! let mut found = Vec::new();
//! let outcome = solver.search(&SearchConfig::default(), |s| {
//!     found.push((s.value(x), s.value(y)));
//!     ControlFlow::Continue(()) // Break(()) would stop at this solution
//! });
//! assert_eq!(found, [(6, 3), (8, 2)]);
//! assert_eq!(outcome.solutions, 2);
//! assert_eq!(outcome.stopped, None); // the whole tree was explored: there are no others
//! # Ok::<(), cpsolve_engine::ModelError>(())
//! ```
//!
//! Building a model can fail with a [`ModelError`] (an empty domain, a value beyond
//! [`VAL_LIMIT`], a sum that could overflow, arguments that do not fit together); a model
//! that is merely unsatisfiable is not an error: its search finds no solution.
//!
//! # Background
//! A model is a set of integer variables, each with a finite domain, and constraints over
//! them. Each constraint is enforced by a *propagator*, which removes from the domains the
//! values that cannot appear in any solution of that constraint. Propagators are woken by
//! *events* on their variables (fixed, bounds changed, any value removed) and run from a
//! priority queue until none can remove anything more: the *fixpoint*. Search then picks an
//! unfixed variable, splits its domain in two (`x = v` / `x ≠ v`, or `x ≤ v` / `x > v`),
//! and explores both sides depth first. Every domain change is recorded on a *trail*, so
//! going back up the tree is undoing changes, never copying state.
//!
//! # Variables and domains
//! A variable is a [`VarId`], a handle into its solver. [`Solver::new_var`] gives it the
//! range `lo..=hi`, [`Solver::new_var_in`] any set of values. A domain of up to 2^24
//! values is a bitset that can have holes; a wider one is an interval whose inner values
//! are never removed (that only weakens propagation: every solution is still checked).
//! Values are [`Val`]s (`i64`) within ±[`VAL_LIMIT`], so that sums of a few never overflow.
//!
//! Before searching, the domains can be narrowed at the root ([`Solver::set_min`],
//! [`Solver::set_max`], [`Solver::remove`], [`Solver::assign`]) and read ([`Solver::min`],
//! [`Solver::max`], [`Solver::size`], [`Solver::values`], ...). [`Solver::propagate`] runs
//! the constraints to their fixpoint at the root and says whether the model can still
//! have a solution; a domain emptied at the root marks the model failed
//! ([`Solver::is_failed`]) instead of returning an error.
//!
//! ```
//! use cpsolve_engine::constraints::not_equal;
//! use cpsolve_engine::{ModelError, Solver};
//!
//! let mut solver = Solver::new();
//! let x = solver.new_var_in(&[1, 3, 5, 7])?;
//! let y = solver.new_var(1, 3)?;
//! solver.remove(x, 5);
//! solver.assign(y, 3);
//! not_equal(&mut solver, x, y, 0); // x ≠ y + 0
//! assert!(solver.propagate());
//! assert_eq!(solver.values(x).collect::<Vec<_>>(), [1, 7]);
//!
//! assert_eq!(solver.new_var(5, 4), Err(ModelError::EmptyDomain));
//! solver.set_min(x, 8); // nothing left: the model has no solution
//! assert!(solver.is_failed());
//! # Ok::<(), ModelError>(())
//! ```
//!
//! # Posting constraints
//! Every constraint is posted by a function of [`constraints`] that takes the solver
//! first. It checks its arguments, simplifies (repeated variables merged, fixed ones
//! folded into constants), decides what it can at once, and only then posts the cheapest
//! propagator that enforces it. Those that can overflow or be given inconsistent
//! arguments return `Result<(), ModelError>`.
//!
//! | Family | Post functions |
//! |---|---|
//! | Arithmetic | [`linear`](constraints::linear) (`Σ aᵢ·xᵢ ⋈ c` with any [`Rel`]), [`linear_eq_domain`](constraints::linear_eq_domain), [`not_equal`](constraints::not_equal), [`times`](constraints::times), [`abs`](constraints::abs), [`div_by_constant`](constraints::div_by_constant), [`mod_by_constant`](constraints::mod_by_constant), [`function`](constraints::function) (`z = f(x)`), [`binary_function`](constraints::binary_function) (`z = f(x, y)`), [`extremum`](constraints::extremum) (min, max), [`element`](constraints::element) |
//! | Logic | [`reified_linear`](constraints::reified_linear), [`reified_equal`](constraints::reified_equal), [`half_reified_linear`](constraints::half_reified_linear), [`reified_in`](constraints::reified_in), [`clause`](constraints::clause), [`parity`](constraints::parity), [`parity_elimination`](constraints::parity_elimination) |
//! | Values | [`all_different`](constraints::all_different) (with offsets, at a [`Consistency`]), [`all_different_shifted`](constraints::all_different_shifted), [`global_cardinality`](constraints::global_cardinality), [`global_cardinality_low_up`](constraints::global_cardinality_low_up), [`table`](constraints::table), [`regular`](constraints::regular) |
//! | Orders and graphs | [`lex_less`](constraints::lex_less), [`lex_lesseq`](constraints::lex_lesseq), [`inverse`](constraints::inverse), [`circuit`](constraints::circuit), [`subcircuit`](constraints::subcircuit) |
//! | Scheduling and packing | [`cumulative`](constraints::cumulative), [`disjunctive`](constraints::disjunctive), [`diffn`](constraints::diffn) |
//!
//! A constraint of your own is a [`Propagator`] given to [`Solver::post`] (see *Adding a
//! propagator* below).
//!
//! # Search
//! [`SearchConfig::branching`] lists groups of variables, each a [`Branching`] with a
//! [`VarOrder`] (which unfixed variable next: input order, smallest domain, dom/wdeg, ...)
//! and a [`ValOrder`] (how to split its domain: `x = min` / `x ≠ min`, the maximum, the
//! middle, halving, ...). Groups are decided in order; variables in no group are decided
//! last, in creation order, smallest value first. Every decision is binary and its two
//! branches cover the node exactly, so counts are exact.
//!
//! ```
//! use std::ops::ControlFlow;
//! use cpsolve_engine::constraints::all_different_shifted;
//! use cpsolve_engine::{Branching, SearchConfig, Solver, ValOrder, VarOrder};
//!
//! // 6 queens: queen c stands in row q[c]; rows and both diagonals all different.
//! let mut solver = Solver::new();
//! let q: Vec<_> = (0..6).map(|_| solver.new_var(0, 5)).collect::<Result<_, _>>()?;
//! all_different_shifted(&mut solver, &q);
//! let config = SearchConfig {
//!     branching: vec![Branching {
//!         vars: q.clone(),
//!         var_order: VarOrder::SmallestDomain,
//!         val_order: ValOrder::MiddleOut,
//!     }],
//!     ..SearchConfig::default()
//! };
//! let mut first = None;
//! let outcome = solver.search(&config, |s| {
//!     first = Some(q.iter().map(|&x| s.value(x)).collect::<Vec<_>>());
//!     ControlFlow::Break(())
//! });
//! assert_eq!(outcome.solutions, 1);
//! let rows = first.unwrap();
//! for i in 0..6 {
//!     for j in i + 1..6 {
//!         assert!(rows[i] != rows[j] && (rows[i] - rows[j]).abs() != (j - i) as i64);
//!     }
//! }
//! # Ok::<(), cpsolve_engine::ModelError>(())
//! ```
//!
//! **A branching of your own.** The search takes its decisions only from
//! [`Branching`] groups; there is no callback to choose them. A static order of your
//! own is a group in [`VarOrder::Input`] with the variables listed in that order. A
//! dynamic rule drives the search from outside: a node is the model plus the decisions on
//! the path to it, each a [`Literal`]; build the model, [`Solver::apply`] the path,
//! [`Solver::propagate`], read the domains, pick a decision and recurse into its two
//! sides. `examples/queens_custom_branching.rs` does this for n-queens. The same pieces
//! split a search for parallel workers: [`Solver::split`] cuts the tree into
//! [`Subproblem`]s, which fresh solvers [`Solver::apply`] and search
//! (embarrassingly parallel search).
//!
//! Further knobs of [`SearchConfig`]: [`restart_scale`](SearchConfig::restart_scale)
//! restarts a dom/wdeg search on the [`luby`] schedule; [`check_solutions`](SearchConfig::check_solutions)
//! checks each solution against every constraint, for testing propagators.
//!
//! # Solutions and optimisation
//! The callback sees each solution as a [`Solution`], valid only during the call: copy out
//! the values you need with [`Solution::value`]. It returns `ControlFlow::Continue(())` to
//! go on or `ControlFlow::Break(())` to stop ([`Stop::Callback`]). Two flags tell the
//! engine what you want, so that it can take shortcuts:
//! [`count_only`](SearchConfig::count_only) (the callback is not called; a constraint that
//! can count its completions, such as [`all_different_shifted`](constraints::all_different_shifted),
//! replaces the search below a node) and [`first_only`](SearchConfig::first_only).
//!
//! With [`SearchConfig::objective`] set to a variable and a [`Sense`], the search is
//! branch and bound: every solution reported is strictly better than the one before, so
//! the last one is the optimum once the search ends with `stopped == None`.
//!
//! ```
//! use std::ops::ControlFlow;
//! use cpsolve_engine::constraints::linear;
//! use cpsolve_engine::{Rel, SearchConfig, Sense, Solver};
//!
//! // Maximise 3x + 2y subject to x + y ≤ 4, x ≤ 3.
//! let mut solver = Solver::new();
//! let x = solver.new_var(0, 3)?;
//! let y = solver.new_var(0, 4)?;
//! let profit = solver.new_var(0, 100)?;
//! linear(&mut solver, &[(1, x), (1, y)], Rel::Le, 4)?;
//! linear(&mut solver, &[(3, x), (2, y), (-1, profit)], Rel::Eq, 0)?;
//! let config = SearchConfig { objective: Some((profit, Sense::Maximize)), ..SearchConfig::default() };
//! let mut best = None;
//! let outcome = solver.search(&config, |s| {
//!     best = Some((s.value(x), s.value(y), s.value(profit)));
//!     ControlFlow::Continue(())
//! });
//! assert_eq!(outcome.stopped, None); // proven optimal
//! assert_eq!(best, Some((3, 1, 11)));
//!
//! // Counting: the solver is back at its root after a search, ready for another one.
//! let count = solver.search(&SearchConfig { count_only: true, ..SearchConfig::default() }, |_| {
//!     ControlFlow::Continue(())
//! });
//! assert_eq!(count.solutions, 5 + 4 + 3 + 2); // x = 0, 1, 2, 3 with y ≤ 4 − x
//! # Ok::<(), cpsolve_engine::ModelError>(())
//! ```
//!
//! # Limits and stop requests
//! [`Limits`] bound one search: wall-clock [`time`](Limits::time), a number of
//! [`solutions`](Limits::solutions) or of [`nodes`](Limits::nodes), and a
//! [`cancel`](Limits::cancel) flag another thread may set. A search that reaches one stops
//! cleanly and says why in [`Outcome::stopped`]; a count is then a lower bound and an
//! optimum unproven. The clock and the flag are read every 256 nodes, the node count at
//! every node.
//!
//! ```
//! use std::ops::ControlFlow;
//! use cpsolve_engine::constraints::all_different_shifted;
//! use cpsolve_engine::{Limits, SearchConfig, Solver, Stop};
//!
//! let mut solver = Solver::new();
//! let q: Vec<_> = (0..12).map(|_| solver.new_var(0, 11)).collect::<Result<_, _>>()?;
//! all_different_shifted(&mut solver, &q);
//! let config = SearchConfig {
//!     limits: Limits { nodes: Some(100), ..Limits::default() },
//!     ..SearchConfig::default()
//! };
//! let outcome = solver.search(&config, |_| ControlFlow::Continue(()));
//! assert_eq!(outcome.stopped, Some(Stop::Nodes));
//! assert_eq!(solver.stats().nodes, 100);
//! # Ok::<(), cpsolve_engine::ModelError>(())
//! ```
//!
//! A limit watched outside the search (a deadline, a memory budget watched by another
//! thread, a user's request) is requested on the run's [`StopToken`], which the solver holds
//! ([`Solver::set_stop_token`]): every search of that solver stops at its next check with
//! that [`Stop`], and creating variables fails with [`ModelError::Interrupted`], so that
//! building a huge model stops too. Other runs, with their own tokens, go on.
//!
//! # Statistics
//! [`Solver::stats`] holds the effort of every search of the solver so far, as [`Stats`]:
//! nodes (branches taken), failures, propagator runs, solutions, the deepest decision
//! stack, restarts and the time searched. [`Stats::add`] merges the counters of parallel
//! workers.
//!
//! ```
//! use std::ops::ControlFlow;
//! use cpsolve_engine::constraints::{all_different, linear};
//! use cpsolve_engine::{Consistency, Rel, SearchConfig, Solver};
//!
//! let mut solver = Solver::new();
//! let xs: Vec<_> = (0..3).map(|_| solver.new_var(1, 3)).collect::<Result<_, _>>()?;
//! all_different(&mut solver, &xs, &[], Consistency::Domain);
//! linear(&mut solver, &[(1, xs[0]), (-1, xs[2])], Rel::Lt, 0)?; // x0 < x2
//! let outcome = solver.search(&SearchConfig::default(), |_| ControlFlow::Continue(()));
//! let stats = solver.stats();
//! assert_eq!(outcome.solutions, 3);
//! assert_eq!(stats.solutions, 3);
//! assert!(stats.nodes >= 3 && stats.propagations > 0);
//! # Ok::<(), cpsolve_engine::ModelError>(())
//! ```
//!
//! # Adding a propagator
//! 1. Write `propagate` from scratch first: read the bounds, prune, return
//!    `Err(Conflict)` on an empty domain.
//! 2. Write `is_satisfied`, the ground truth, and test the propagator against brute force
//!    (see `tests/brute_force.rs`) on small random domains. Do not skip this.
//! 3. Subscribe to the weakest events that suffice in `post` (`ASSIGNED` < `BOUNDS` <
//!    `DOMAIN`), and decide trivial cases there.
//! 4. Only then make it incremental, with [`TrailedInt`]s for state that must be undone.
//! 5. Give it a post function in [`constraints`] that simplifies before creating it.

#![warn(missing_docs)]

mod branch;
pub mod constraints;
mod domain;
pub mod explain;
mod ids;
pub mod learn;
mod literal;
mod outcome;
mod propagator;
pub mod propagators;
mod queue;
mod search;
mod select;
mod solver;
mod stop;
mod store;
mod trail;

pub use branch::{Branching, ValOrder, VarOrder};
pub use constraints::Rel;
pub use domain::DomainValues;
pub use ids::{PropId, TrailedInt, VarId};
pub use learn::explain::ExplainContext;
pub use literal::Literal;
pub use outcome::{Conflict, Events, Interrupted, Priority, PropResult, PropStatus};
pub use propagator::{Context, NotifyContext, PostContext, Propagator, Share};
pub use propagators::all_different::Consistency;
pub use search::{
    luby, ActivityOver, ActivitySearch, Limits, Outcome, Probe, SearchConfig, Sense, SharedBound, Solution, Stats,
    Stop, Subproblem,
};
pub use solver::{ModelError, Solver, VAL_LIMIT};
pub use stop::StopToken;

/// A domain value.
pub type Val = i64;
