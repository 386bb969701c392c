//! A step that needs many constraints at once is told as a chain of small steps from an
//! assumption to a contradiction: each link checks on its own, rests only on what was
//! known before the step, the assumption and earlier links, and cites fewer constraints
//! than the step it tells. A link broken on purpose fails its check.

mod common;

use common::sudoku;
use cpsolve_engine::explain::{Conclusion, Explanation, Fact, Reasoning, Step, Values};
use cpsolve_engine::VarId;

/// AI Escargot: its stalls need chains (Sukaku Explainer rates it 10.5).
const ESCARGOT: &str = "100007090030020008009600500005300900010080002600004000300000010040000007007000300";

/// Each step with what was known just before it: the givens, narrowed by the conclusions
/// of the steps before.
fn with_known_before(root: &[(VarId, Values)], explanation: &Explanation) -> Vec<(Vec<(VarId, Values)>, Step)> {
    let mut known = root.to_vec();
    let mut out = Vec::new();
    for step in &explanation.steps {
        out.push((known.clone(), step.clone()));
        if let Conclusion::Narrowed(fact) = &step.conclusion {
            let slot = known.iter_mut().find(|(x, _)| *x == fact.var).expect("a shown variable");
            slot.1 = fact.values.clone();
        }
    }
    out
}

/// What the chain of `step` assumes: the split's value, or that the direct step's
/// conclusion is false.
fn assumption(step: &Step, known: &[(VarId, Values)]) -> Fact {
    match (&step.reasoning, &step.conclusion) {
        (Reasoning::CaseSplit { var, value }, _) => Fact { var: *var, values: Values::single(*value) },
        (Reasoning::Direct, Conclusion::Narrowed(fact)) => {
            let before = &known.iter().find(|(x, _)| *x == fact.var).expect("shown").1;
            Fact { var: fact.var, values: Values::from_ascending(before.iter().filter(|&v| !fact.values.contains(v))) }
        }
        _ => panic!("a chain under {step:?}"),
    }
}

#[test]
fn a_chain_checks_link_by_link_and_rests_on_what_it_may() {
    let (mut solver, config) = sudoku(ESCARGOT);
    let root: Vec<(VarId, Values)> =
        config.shown.iter().map(|&x| (x, Values::from_ascending(solver.min(x)..=solver.max(x)))).collect();
    let explanation = solver.explain(&config).expect("explained");
    let chained: Vec<_> =
        with_known_before(&root, &explanation).into_iter().filter(|(_, step)| !step.chain.is_empty()).collect();
    assert!(!chained.is_empty(), "AI Escargot's splits cite more than six constraints");
    for (known, step) in &chained {
        let assumed = assumption(step, known);
        let mut learned: Vec<Fact> = vec![assumed.clone()];
        for link in &step.chain {
            assert!(link.groups.len() < step.groups.len(), "a link as large as the step: {link:?}");
            assert!(link.chain.is_empty(), "no chain within a chain");
            assert!(solver.verify_step(&config, link).is_ok(), "{link:?}");
            for fact in &link.facts {
                // The newest value learned for the variable in the chain (the assumption
                // first), else what was known before the step.
                let newest = learned.iter().rev().find(|f| f.var == fact.var).map(|f| &f.values);
                let before = &known.iter().find(|(x, _)| *x == fact.var).expect("shown").1;
                assert_eq!(&fact.values, newest.unwrap_or(before), "{link:?} rests on {fact:?}");
            }
            if let Conclusion::Narrowed(fact) = &link.conclusion {
                learned.push(fact.clone());
            }
        }
        assert_eq!(step.chain.last().map(|l| &l.conclusion), Some(&Conclusion::Contradiction), "{step:?}");
        assert!(step.chain.iter().any(|l| l.facts.contains(&assumed)), "the assumption is used: {step:?}");
    }
}

#[test]
fn a_link_without_the_assumption_or_with_a_wrong_conclusion_is_caught() {
    let (mut solver, config) = sudoku(ESCARGOT);
    let explanation = solver.explain(&config).expect("explained");
    let step = explanation.steps.iter().find(|s| !s.chain.is_empty()).expect("a chain");
    let Reasoning::CaseSplit { var, value } = step.reasoning else { panic!("Escargot's chains are splits") };
    let assumed = Fact { var, values: Values::single(value) };
    let mut caught = 0;
    let mut tried = 0;
    for link in &step.chain {
        if link.facts.contains(&assumed) {
            // Without the assumption, a link that rests on it does not follow.
            let mut without = link.clone();
            without.facts.retain(|f| *f != assumed);
            tried += 1;
            caught += usize::from(solver.verify_step(&config, &without).is_err());
        }
        if let Conclusion::Narrowed(fact) = &link.conclusion {
            // A conclusion that names another value of the variable is wrong.
            let other = (1..=9).find(|v| !fact.values.contains(*v)).expect("a value left out");
            let wrong = Step {
                conclusion: Conclusion::Narrowed(Fact { var: fact.var, values: Values::single(other) }),
                ..link.clone()
            };
            assert!(solver.verify_step(&config, &wrong).is_err(), "a wrong link passed: {wrong:?}");
        }
    }
    assert!(tried > 0 && caught == tried, "{caught} of {tried} links without their assumption caught");
}
