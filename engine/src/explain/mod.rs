//! Step-wise explanations: how a model's solution follows from its givens, one small
//! deduction at a time.
//!
//! Propagation to a fixpoint solves many puzzles, but it says nothing a person can follow:
//! hundreds of propagator runs, each using whatever the others left. An *explanation*
//! (after Bogaerts, Gamba and Guns, "A framework for step-wise explaining how to solve
//! constraint satisfaction problems", AIJ 2021) is a sequence of steps, each of which names
//!
//! - a few **constraints** (groups of propagators that the front end labels: "column 3",
//!   "row 5", a source line),
//! - a few **facts**, the domains of variables as earlier steps left them ("M = 1",
//!   "S ∈ {8, 9}"),
//! - and one **conclusion**: a variable's domain narrowed, usually to a single value, or a
//!   contradiction,
//!
//! such that the named constraints and facts alone imply the conclusion. Steps come
//! simplest first: every variable that the constraints can fix next is a candidate, and the
//! candidate with the fewest constraints, then the fewest facts, is told. Only when
//! propagation fixes nothing more is a *case split* used: "if x = v, then these constraints
//! give a contradiction; so x ≠ v".
//!
//! # How a step is found
//! 1. All constraints run from the known facts (`explain::subset`); the variables they fix, or
//!    failing that narrow, are the candidates.
//! 2. For a candidate, each single constraint is tried alone. If none suffices, the
//!    constraints that pruned anything in step 1 are taken, and each is dropped in turn when
//!    the rest still reach the conclusion (deletion, as in QuickXplain's simplest form);
//!    the result has no constraint that can be left out.
//! 3. The facts are minimised the same way: each known fact is forgotten in turn (its
//!    variable back to its root domain) when the conclusion still follows.
//! 4. The step is checked by `explain::verify`, independently of the propagation that found it.
//!
//! The root of the solver must not have been propagated: whatever the root knows is taken
//! as given (the puzzle's givens, posted as unary constraints, and a leading digit's
//! `≥ 1`), so a deduction made there would be told by no step.

mod driver;
mod grade;

pub use driver::{permutation_sum, PermutationSum, MAX_FACT_VALUES};
pub use grade::{step_difficulty, Difficulty};
mod subset;
mod values;
mod verify;

pub use values::Values;

use crate::domain::Val;
use crate::ids::{PropId, VarId};
use crate::search::Stop;

/// A constraint as the user sees it: its propagators. Its index in
/// [`ExplainConfig::groups`] is how steps name it.
pub type Group = Vec<PropId>;

/// What an explanation explains, and how hard it may work.
#[derive(Debug, Clone)]
pub struct ExplainConfig {
    /// The constraints, each a group of propagators. Propagators in no group run with
    /// every step (they are the model's plumbing, not something a person would cite).
    pub groups: Vec<Group>,
    /// The variables a person cares about: conclusions and facts are about these only.
    pub shown: Vec<VarId>,
    /// At most this many steps.
    pub max_steps: usize,
    /// Node budget of each step's independent check.
    pub verify_budget: u64,
    /// How many candidates get the full (multi-constraint) minimisation in each step.
    pub candidates: usize,
}

impl ExplainConfig {
    /// A configuration with the usual budgets.
    pub fn new(groups: Vec<Group>, shown: Vec<VarId>) -> ExplainConfig {
        ExplainConfig { groups, shown, max_steps: 10_000, verify_budget: 2_000_000, candidates: 6 }
    }
}

/// A variable's domain, as far as it is known: `var ∈ values`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fact {
    /// The variable.
    pub var: VarId,
    /// Its remaining values.
    pub values: Values,
}

/// What a step concludes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Conclusion {
    /// The variable's domain is now this (a single value when it is fixed).
    Narrowed(Fact),
    /// The facts and constraints cannot all hold: the model has no solution.
    Contradiction,
}

/// How a step reasons.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reasoning {
    /// The constraints and facts imply the conclusion directly.
    Direct,
    /// Assuming `var = value` with the facts makes the constraints contradict each other,
    /// so `var ≠ value`.
    CaseSplit {
        /// The variable assumed.
        var: VarId,
        /// The value assumed.
        value: Val,
    },
    /// The groups' equations, each times its factor (in the order of [`Step::groups`]),
    /// add up to `0 = c` with `c ≠ 0`: a counting argument ("the rows sum to 45, the
    /// columns to 48"). Its conclusion is a contradiction.
    Sum {
        /// One factor per group.
        factors: Vec<i64>,
        /// The right-hand side of the sum, which is not 0 while its left-hand side is.
        total: i64,
    },
    /// Every other value of the variable leads to a contradiction, as a search with all
    /// the constraints shows: no short deduction was found. The last resort.
    Search,
}

/// One step of an explanation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// Direct, or a case split.
    pub reasoning: Reasoning,
    /// The constraints used, as indices into [`ExplainConfig::groups`], ascending.
    pub groups: Vec<usize>,
    /// The facts used (each as known before this step).
    pub facts: Vec<Fact>,
    /// What follows.
    pub conclusion: Conclusion,
    /// For a case split or a search: how open the model was when nothing shorter was
    /// left. `None` for a direct step.
    pub stall: Option<Stall>,
    /// For a contradiction, where it shows: the groups, from the step's other facts, leave
    /// this variable only these values, and none of them is in its fact (`x[3,1] = 2`, yet
    /// the constraints allow it only 5 or 8). Checked as a step of its own. `None` when no
    /// single fact clashes so.
    pub clash: Option<Fact>,
    /// For a step that needs many constraints at once, a case split or a direct one: the
    /// small steps that lead from an assumption to a contradiction, each checked as a step
    /// of its own (the assumption is one of their facts): the split's assumption, or that
    /// the direct step's conclusion is false. Empty when the step is told as one.
    pub chain: Vec<Step>,
}

/// Where an explanation stalls (nothing short of a case split moves it on): how many
/// (variable, value) pairs propagation of all the constraints leaves open, and how many of
/// them a one-level case split refutes (assumed, they make the constraints contradict each
/// other by propagation); the same once the simple patterns (two constraints seen together
/// over the variables they share, such as a Sudoku's locked candidates) have removed what
/// they can. The open pairs left unrefuted after the patterns measure how hard the stall is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stall {
    /// Values still open in the variables' domains, counted over all shown variables that
    /// have more than one.
    pub open: usize,
    /// Of those, the values whose assumption leads to a contradiction by propagation.
    pub refuted: usize,
    /// Values still open once the pattern closure (pairs of constraints projected over
    /// their shared variables, then all of them propagated, until nothing falls) is
    /// applied: 0 when the patterns fix every variable or contradict.
    pub patterned_open: usize,
    /// Of those, the values whose assumption leads to a contradiction by propagation.
    pub patterned_refuted: usize,
}

/// Why an explanation ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// Every shown variable is fixed.
    Solved,
    /// The last step is a contradiction: no solution.
    NoSolution,
    /// Nothing more follows, and both values of the next open variable lead to solutions:
    /// the model has several, and this is a free pick.
    FreeChoice {
        /// The open variable.
        var: VarId,
    },
    /// No solution exists, but no step short of a search shows it.
    NoSolutionBySearch,
    /// The step budget or a stop requested on the solver's [`crate::StopToken`] ended it.
    Stopped(Option<Stop>),
}

/// A sequence of steps and how it ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// Why it ends.
    pub ending: Ending,
    /// The shown variables' domains at the end.
    pub known: Vec<Fact>,
}

/// Why no explanation was produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExplainError {
    /// The root was propagated: deductions made there would go untold.
    RootPropagated,
    /// A shown variable's domain is too large to be listed as a fact.
    DomainTooLarge(VarId),
    /// A step failed its independent check: an engine bug, reported rather than printed.
    Unverified {
        /// The step.
        step: Box<Step>,
        /// The assignment that satisfies its constraints and facts but not its conclusion,
        /// or `None` when the check ran out of budget.
        counterexample: Option<Vec<(VarId, Val)>>,
    },
}

use crate::solver::Solver;

impl Solver {
    /// The propagators posted since [`Solver::num_propagators`] was `first`: how a front
    /// end collects the [`Group`] of one constraint it compiles.
    pub fn propagators_since(&self, first: usize) -> Group {
        (first..self.props.len()).map(|p| PropId(p as u32)).collect()
    }

    /// Checks one step on its own, as [`Solver::explain`] does before telling it: the
    /// step's groups (with the propagators of no group) and its facts leave no value of its
    /// variable outside its conclusion, or, for a contradiction, no solution at all.
    pub fn verify_step(&mut self, config: &ExplainConfig, step: &Step) -> Result<(), ExplainError> {
        let mut props: Vec<PropId> = step.groups.iter().flat_map(|&g| config.groups[g].iter().copied()).collect();
        let mut grouped = vec![false; self.props.len()];
        for p in config.groups.iter().flatten() {
            grouped[p.index()] = true;
        }
        props.extend((0..self.props.len()).filter(|&p| !grouped[p]).map(|p| PropId(p as u32)));
        props.sort();
        props.dedup();
        driver::check_step(self, &config.groups, &props, step, config.verify_budget)
    }
}

impl std::fmt::Display for ExplainError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExplainError::RootPropagated => write!(f, "the model was propagated before it was explained"),
            ExplainError::DomainTooLarge(x) => {
                write!(
                    f,
                    "variable {} has more than {} values: too many to explain",
                    x.index(),
                    driver::MAX_FACT_VALUES
                )
            }
            ExplainError::Unverified { counterexample: Some(_), .. } => {
                write!(f, "internal error: a step of the explanation is wrong (its check found a counterexample)")
            }
            ExplainError::Unverified { counterexample: None, .. } => {
                write!(f, "a step of the explanation could not be checked within its budget")
            }
        }
    }
}

impl std::error::Error for ExplainError {}
