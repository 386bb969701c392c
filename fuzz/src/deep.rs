//! Seeds nested as deep as the parser takes them, for the deep-nesting campaign.
//!
//! The corpus's models are shallow, and a mutation adds a level at a time: no campaign
//! from them reaches the depths where a recursive pass overflows its stack. These seeds
//! start there. Each wraps an innermost expression in a random mix of the nesting forms
//! (prefix operators, calls, brackets, generator calls, chained infix operators) up to a
//! depth drawn around [`cpsolve_dsl::MAX_NESTING`], some just under it, some over, and
//! states it as a constraint, a constant, an objective or a puzzle's parameter. Mutations
//! then damage them as they damage any seed; what must hold is what holds for every
//! input: an answer or a located error, never a crash.

use std::path::PathBuf;

use crate::corpus::{Kind, Seed};
use crate::rng::Rng;

/// One level of nesting: the text before and after the inner expression, and how many
/// operators and brackets (the lexer's count) it adds.
struct Form {
    open: &'static str,
    close: &'static str,
    levels: usize,
}

const FORMS: [Form; 10] = [
    Form { open: "not ", close: "", levels: 1 },
    Form { open: "-", close: "", levels: 1 },
    Form { open: "abs(", close: ")", levels: 1 },
    Form { open: "min(1, ", close: ")", levels: 1 },
    Form { open: "(", close: ")", levels: 1 },
    Form { open: "(1 + ", close: ")", levels: 2 },
    Form { open: "(", close: " * 1)", levels: 2 },
    Form { open: "sum(i in 1..1)(", close: ")", levels: 4 },
    Form { open: "x[", close: "]", levels: 1 },
    Form { open: "(true -> ", close: ")", levels: 2 },
];

/// `count` seeds drawn from `seed`.
pub fn seeds(seed: u64, count: usize) -> Vec<Seed> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|i| Seed { path: PathBuf::from(format!("deep-{i}.puz")), kind: Kind::Puz, bytes: model(&mut rng) })
        .collect()
}

/// One model: a deep expression in one of the places an expression may stand.
fn model(rng: &mut Rng) -> Vec<u8> {
    let cap = cpsolve_dsl::MAX_NESTING;
    // Mostly just under the cap, where a pass is deepest; some past it, for the lexer's error.
    let depth = if rng.chance(1, 5) { cap + rng.below(50) } else { cap - 20 - rng.below(cap / 2) };
    // A few forms per model, so that each pass meets long runs of one form and switches.
    let kinds: Vec<&Form> = (0..1 + rng.below(3)).map(|_| rng.pick(&FORMS)).collect();
    let (mut open, mut close) = (String::new(), Vec::new());
    let mut levels = 0;
    while levels < depth {
        let form = *rng.pick(&kinds);
        open.push_str(form.open);
        close.push(form.close);
        levels += form.levels;
    }
    close.reverse();
    let expr = format!("{open}1{}", close.concat());
    let text = match rng.below(4) {
        0 => format!("var x[1..3] in 0..3\nx[1] == {expr}\nsolve count\n"),
        1 => format!("var x[1..3] in 0..3\nlet c = {expr}\nx[1] == c\nsolve count\n"),
        2 => format!("var x[1..3] in 0..3\nminimize {expr}\n"),
        _ => format!("queens n = {expr}\n"),
    };
    text.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_reach_the_cap_and_are_reproducible() {
        let first = seeds(7, 20);
        assert_eq!(
            first.iter().map(|s| s.bytes.clone()).collect::<Vec<_>>(),
            seeds(7, 20).into_iter().map(|s| s.bytes).collect::<Vec<_>>()
        );
        assert!(first.iter().any(|s| s.bytes.len() > cpsolve_dsl::MAX_NESTING));
    }
}
