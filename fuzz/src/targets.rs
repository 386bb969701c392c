//! The in-process targets: the library entry points that read untrusted text.
//!
//! Each target takes the text of one file, reads it as the binary would (and, unless
//! told not to, renders the errors as the binary prints them), and returns a [`Verdict`]:
//! whether the input was accepted, and a *signature* of what happened. Errors are the expected answer to most
//! mutants and are not findings; what matters is that the call returns at all, without a
//! panic, in reasonable time and memory. The signature is the campaign's stand-in for
//! code coverage (see the crate docs): the stage reached plus the first error's wording
//! with its digits folded, so `x[12]` and `x[13]` out of range count as one behaviour.

use cpsolve_engine::StopToken;
use std::sync::Arc;

use cpsolve_dsl::Diagnostic;

use crate::corpus::Kind;

/// What one input did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub accepted: bool,
    pub signature: String,
}

/// What a reader made of an input: the stage it reached, and the errors it refused the
/// input with (none if it accepted it).
struct Reading {
    stage: String,
    errors: Vec<Diagnostic>,
}

impl Reading {
    fn accepted(stage: &str) -> Reading {
        Reading { stage: stage.to_string(), errors: Vec::new() }
    }

    fn rejected(stage: &str, errors: Vec<Diagnostic>) -> Reading {
        Reading { stage: stage.to_string(), errors }
    }

    /// The verdict. With `render`, the errors are rendered as the binary prints them and
    /// the text thrown away: a span off a character boundary, or a report that grows with
    /// the square of the input, is as much a bug as a panic in the parser.
    fn verdict(self, source: &str, render: bool) -> Verdict {
        if self.errors.is_empty() {
            return Verdict { accepted: true, signature: format!("ok {}", self.stage) };
        }
        if render {
            std::hint::black_box(cpsolve_dsl::render("input", source, &self.errors, false));
        }
        let first = self.errors[0].message.as_str();
        Verdict { accepted: false, signature: format!("{}: {}", self.stage, fold(first)) }
    }
}

/// The wording of a message with each run of digits replaced by `#`, each quoted name or
/// snippet (between backticks or double quotes) by `…`, cut to 80 characters: the kind
/// of error, not its instance, so `x[12]` and `y[13]` out of range are one behaviour.
pub fn fold(message: &str) -> String {
    let mut folded = String::new();
    let mut quote = None;
    for c in message.chars() {
        match quote {
            Some(q) if c == q => {
                folded.push(c);
                quote = None;
            }
            Some(_) => {}
            None if c == '`' || c == '"' => {
                folded.push(c);
                folded.push('…');
                quote = Some(c);
            }
            None if c.is_ascii_digit() => {
                if !folded.ends_with('#') {
                    folded.push('#');
                }
            }
            None => folded.push(c),
        }
        if folded.chars().count() >= 80 {
            break;
        }
    }
    folded
}

/// The function under test.
/// The function under test: an input, and the stop token of its run (the executor requests
/// a stop on it half-way through the input's budget).
pub type TargetFn = Arc<dyn Fn(&str, &StopToken) -> Verdict + Send + Sync>;

/// A named target and the language of its inputs.
#[derive(Clone)]
pub struct Target {
    pub name: &'static str,
    pub kind: Kind,
    pub run: TargetFn,
}

impl std::fmt::Debug for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Target").field("name", &self.name).field("kind", &self.kind).finish_non_exhaustive()
    }
}

/// The names of the in-process targets.
pub const NAMES: [&str; 3] = ["puz", "mine", "fzn"];

/// The in-process target of that name, rendering its errors.
pub fn by_name(name: &str) -> Option<Target> {
    with_rendering(name, true)
}

/// The in-process target of that name; `render` says whether its errors are rendered too.
pub fn with_rendering(name: &str, render: bool) -> Option<Target> {
    let (kind, read): (Kind, fn(&str, &StopToken) -> Reading) = match name {
        "puz" => (Kind::Puz, puz),
        "mine" => (Kind::Mine, mine),
        "fzn" => (Kind::Fzn, fzn),
        _ => return None,
    };
    let name = NAMES.iter().find(|&&n| n == name)?;
    Some(Target {
        name,
        kind,
        run: Arc::new(move |text: &str, stop: &StopToken| read(text, stop).verdict(text, render)),
    })
}

/// A `.puz` file, as `cpsolve check` reads it: parse; then a puzzle with its own solver
/// is checked by that solver, anything else compiled for the engine (with its `option
/// part` line read as the runner reads it). Nothing is searched: a search may rightly
/// take forever, a compile may not.
fn puz(text: &str, stop: &StopToken) -> Reading {
    let file = match cpsolve_dsl::parse(text) {
        Ok(file) => file,
        Err(errors) => return Reading::rejected("parse", errors),
    };
    if let Some(kind) = cpsolve_puzzles::direct::direct_kind(&file) {
        let stage = format!("{kind:?}");
        return match cpsolve_puzzles::direct::check(kind, &file) {
            Ok(_) => Reading::accepted(&stage),
            Err(errors) => Reading::rejected(&stage, errors),
        };
    }
    if let Err(errors) = cpsolve_models::part(&file) {
        return Reading::rejected("part", errors);
    }
    match cpsolve_models::compile_with_stop(&file, stop) {
        Ok(problem) => {
            // Dropping the problem is part of the run: drops walk the trees too.
            drop(problem);
            Reading::accepted("compile")
        }
        Err(errors) => Reading::rejected("compile", errors),
    }
}

/// A JSMinesweeper `.mine` position, read and described.
fn mine(text: &str, _: &StopToken) -> Reading {
    match cpsolve_puzzles::minesweeper::check_mine_file(text) {
        Ok(_) => Reading::accepted("mine"),
        Err(errors) => Reading::rejected("mine", errors),
    }
}

/// A FlatZinc text, parsed and compiled into engine variables and propagators.
fn fzn(text: &str, stop: &StopToken) -> Reading {
    match cpsolve_flatzinc::load_with_stop(text, stop) {
        Ok(model) => {
            drop(model);
            Reading::accepted("fzn")
        }
        Err(error) => Reading::rejected("fzn", vec![error]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_fold_numbers() {
        assert_eq!(fold("index 12 out of 1..9"), "index # out of #..#");
        assert_eq!(fold("unknown name `x12` in \"a b\""), "unknown name `…` in \"…\"");
    }

    #[test]
    fn targets_accept_valid_files_and_reject_broken_ones() {
        let run = |name: &str, text: &str| (by_name(name).expect("exists").run)(text, &StopToken::new()).accepted;
        assert!(run("puz", "let n = 4\nvar q[1..n] in 1..n\nalldifferent(q)\n"));
        assert!(run("puz", "queens n = 8\n"));
        assert!(run("puz", "compte 100 2 1 10 4 3 -> 819\n"));
        assert!(!run("puz", "let = \n"));
        assert!(run("mine", "2x1x1\nH1\n"));
        assert!(!run("mine", "2x1\n"));
        assert!(run("fzn", "var 1..3: x;\nsolve satisfy;\n"));
        assert!(!run("fzn", "var 1..3 x\n"));
    }
}
