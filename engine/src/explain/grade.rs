//! How hard an explanation is, as one number read off its steps.
//!
//! A person's effort on a puzzle is set by the hardest thing they must do, and a little by
//! how often they must do it (Sukaku Explainer rates a Sudoku by its hardest technique in
//! the same spirit). An explanation says what each step needed, so the difficulty is read
//! from the steps alone:
//!
//! - a **direct step** that cites `g` constraints costs `1 − 1/g`: one constraint 0, two
//!   ½, three ⅔ (a Sudoku's naked single: its row, column and box), and never 1: however
//!   many constraints a deduction combines, it stays below any case split;
//! - a **case split or search** costs `1 + ln(1 + u)`, where `u` is the number of values
//!   that were open at that point, once the simple patterns (two constraints seen together
//!   over the variables they share: a Sudoku's locked candidates) removed what they can, and
//!   that no one-level case split refutes (the step's [`Stall`]): a stall that patterns
//!   resolve, or where nearly every open value falls to "what if?", is an easy one, a stall
//!   in a wide open position is not; a split whose stall is unknown (a step built by hand)
//!   costs 1;
//! - the **score** is the costliest step plus `ln(1 + s) / 3`, `s` the number of case
//!   splits and searches: the hardest step first, then how many of them.
//!
//! The score is 0 for an explanation of single-constraint steps only, below 1 when no case
//! split is needed, and grows without bound (slowly) with the stalls. The front end maps it
//! to a scale people know (`cpsolve explain` prints "Grade: 6.8").

use super::{Explanation, Reasoning, Stall, Step};

/// How hard an explanation is ([`Explanation::difficulty`]): the costliest step (a direct
/// step by the constraints it cites, `1 − 1/g`; a case split or search by the open values
/// that neither the patterns nor a one-level case split removed where it was needed,
/// `1 + ln(1 + u)`: [`step_difficulty`])
/// plus `ln(1 + s) / 3` for its `s` case splits and searches. Below 1 when no case split is
/// needed; a front end maps it to a scale people know.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Difficulty {
    /// The cost of the costliest step.
    pub hardest: f64,
    /// How many steps are case splits or searches.
    pub splits: usize,
    /// The score: `hardest + ln(1 + splits) / 3`.
    pub score: f64,
}

/// What one step costs: `1 − 1/g` for a direct step citing `g` constraints, `1 + ln(1 + u)`
/// for a case split or search, `u` the values left open there by the pattern closure that
/// no one-level case split refuted ([`Stall::patterned_open`] and
/// [`Stall::patterned_refuted`]).
pub fn step_difficulty(step: &Step) -> f64 {
    match step.reasoning {
        Reasoning::Direct | Reasoning::Sum { .. } => 1.0 - 1.0 / step.groups.len().max(1) as f64,
        Reasoning::CaseSplit { .. } | Reasoning::Search => {
            let unrefuted = step.stall.map_or(0, |s: Stall| s.patterned_open.saturating_sub(s.patterned_refuted));
            1.0 + (unrefuted as f64).ln_1p()
        }
    }
}

impl Explanation {
    /// How hard the explanation is, from its steps alone: see [`Difficulty`].
    pub fn difficulty(&self) -> Difficulty {
        let hardest = self.steps.iter().map(step_difficulty).fold(0.0, f64::max);
        let splits = self
            .steps
            .iter()
            .filter(|s| matches!(s.reasoning, Reasoning::CaseSplit { .. } | Reasoning::Search))
            .count();
        Difficulty { hardest, splits, score: hardest + (splits as f64).ln_1p() / 3.0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explain::{Conclusion, Ending, Fact};
    use crate::ids::VarId;

    fn direct(groups: usize) -> Step {
        Step {
            reasoning: Reasoning::Direct,
            groups: (0..groups).collect(),
            facts: Vec::new(),
            conclusion: Conclusion::Narrowed(Fact { var: VarId(0), values: crate::explain::Values::single(1) }),
            stall: None,
            clash: None,
            chain: Vec::new(),
        }
    }

    /// A split whose stall the patterns leave as it was.
    fn split(open: usize, refuted: usize) -> Step {
        patterned_split(open, refuted, open, refuted)
    }

    fn patterned_split(open: usize, refuted: usize, patterned_open: usize, patterned_refuted: usize) -> Step {
        Step {
            reasoning: Reasoning::CaseSplit { var: VarId(0), value: 2 },
            stall: Some(Stall { open, refuted, patterned_open, patterned_refuted }),
            clash: None,
            ..direct(5)
        }
    }

    fn score(steps: Vec<Step>) -> f64 {
        Explanation { steps, ending: Ending::Solved, known: Vec::new() }.difficulty().score
    }

    #[test]
    fn more_constraints_in_a_direct_step_cost_more_but_less_than_any_split() {
        assert_eq!(score(vec![direct(1)]), 0.0);
        assert!(score(vec![direct(1)]) < score(vec![direct(3)]));
        assert!(score(vec![direct(3)]) < score(vec![direct(27)]));
        assert!(score(vec![direct(27)]) < 1.0);
        assert!(score(vec![direct(27)]) < score(vec![direct(1), split(10, 10)]));
    }

    #[test]
    fn a_split_in_a_wider_open_position_costs_more() {
        assert!(score(vec![split(100, 90)]) < score(vec![split(100, 20)]));
        assert_eq!(step_difficulty(&split(100, 100)), 1.0);
        let search = Step { reasoning: Reasoning::Search, ..split(50, 0) };
        assert!(step_difficulty(&search) > step_difficulty(&split(50, 10)));
    }

    #[test]
    fn a_split_counts_what_the_patterns_leave_open() {
        // Patterns that solve the position: the split costs the least a split can.
        assert_eq!(step_difficulty(&patterned_split(180, 90, 0, 0)), 1.0);
        // Patterns that narrow it: less than without them, more than when they solve it.
        let narrowed = step_difficulty(&patterned_split(180, 90, 120, 80));
        assert!(1.0 < narrowed && narrowed < step_difficulty(&split(180, 90)));
        assert_eq!(narrowed, 1.0 + 40f64.ln_1p());
    }

    #[test]
    fn more_splits_cost_more_and_the_hardest_step_counts_most() {
        assert!(score(vec![split(50, 40)]) < score(vec![split(50, 40), split(50, 40)]));
        // Ten easy stalls are still easier than one hard one.
        let easy: Vec<Step> = (0..10).map(|_| split(50, 45)).collect();
        assert!(score(easy) < score(vec![split(200, 20)]));
    }
}
