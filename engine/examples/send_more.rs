//! SEND + MORE = MONEY with the engine's API: each letter a distinct digit, no word starting
//! with 0. The model is the one a person writes first: eight variables, one all-different
//! and one linear equation (the sum's place values as coefficients). The search lists
//! every solution, and the program checks that the puzzle has exactly one.
//!
//! Run it with `cargo run --release -p cpsolve-engine --example send_more`.

use std::ops::ControlFlow;

use cpsolve_engine::constraints::{all_different, linear};
use cpsolve_engine::{Consistency, ModelError, Rel, SearchConfig, Solver, Val, VarId};

/// The letters, in the order the solution is printed.
const LETTERS: [char; 8] = ['S', 'E', 'N', 'D', 'M', 'O', 'R', 'Y'];

/// Every solution, as the digits of `LETTERS`, in the order the search finds them.
fn solve() -> Result<Vec<[Val; 8]>, ModelError> {
    let mut solver = Solver::new();
    let mut digit = Vec::new();
    for _ in LETTERS {
        digit.push(solver.new_var(0, 9)?);
    }
    let letter = |c: char| digit[LETTERS.iter().position(|&l| l == c).expect("a letter of the puzzle")];
    let (s, m) = (letter('S'), letter('M'));
    // Leading letters: a number does not start with 0.
    solver.set_min(s, 1);
    solver.set_min(m, 1);
    all_different(&mut solver, &digit, &[], Consistency::Domain);
    // SEND + MORE − MONEY = 0, each letter weighted by its place values.
    let mut terms: Vec<(i64, VarId)> = Vec::new();
    let mut add_word = |word: &str, sign: i64| {
        let mut place = 1;
        for c in word.chars().rev() {
            terms.push((sign * place, letter(c)));
            place *= 10;
        }
    };
    add_word("SEND", 1);
    add_word("MORE", 1);
    add_word("MONEY", -1);
    linear(&mut solver, &terms, Rel::Eq, 0)?;

    let mut solutions = Vec::new();
    let outcome = solver.search(&SearchConfig::default(), |sol| {
        solutions.push(std::array::from_fn(|i| sol.value(digit[i])));
        ControlFlow::Continue(())
    });
    assert_eq!(outcome.stopped, None, "no limit was set, so the search explores the whole tree");
    Ok(solutions)
}

/// The value of a word under an assignment of digits to `LETTERS`.
fn word_value(word: &str, digits: &[Val; 8]) -> Val {
    word.chars().fold(0, |acc, c| acc * 10 + digits[LETTERS.iter().position(|&l| l == c).expect("a letter")])
}

fn main() -> Result<(), ModelError> {
    let solutions = solve()?;
    for digits in &solutions {
        let [send, more, money] = ["SEND", "MORE", "MONEY"].map(|w| word_value(w, digits));
        println!("{send} + {more} = {money}");
        let letters: Vec<String> = LETTERS.iter().zip(digits).map(|(c, d)| format!("{c}={d}")).collect();
        println!("{}", letters.join(" "));
    }
    assert_eq!(solutions.len(), 1, "SEND + MORE = MONEY has exactly one solution");
    println!("1 solution, and it is the only one");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn send_more_money_has_exactly_the_known_solution() {
        let solutions = solve().expect("a valid model");
        assert_eq!(solutions, [[9, 5, 6, 7, 1, 0, 8, 2]]);
        let digits = &solutions[0];
        assert_eq!(word_value("SEND", digits) + word_value("MORE", digits), word_value("MONEY", digits));
    }
}
