//! The in-process targets: the library entry points that read untrusted text.
//!
//! Each target takes the text of one file and returns a [`Verdict`]: whether the input was
//! accepted, and a *signature* of what happened. Errors are the expected answer to most
//! mutants and are not findings; what matters is that the call returns at all, without a
//! panic, in reasonable time and memory. The signature is the campaign's stand-in for
//! code coverage (see the crate docs): the stage reached plus the first error's wording
//! with its digits folded, so `x[12]` and `x[13]` out of range count as one behaviour.

use std::sync::Arc;

use crate::corpus::Kind;

/// What one input did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub accepted: bool,
    pub signature: String,
}

impl Verdict {
    fn accepted(stage: &str) -> Verdict {
        Verdict { accepted: true, signature: format!("ok {stage}") }
    }

    fn rejected(stage: &str, messages: impl IntoIterator<Item = String>) -> Verdict {
        let first = messages.into_iter().next().unwrap_or_default();
        Verdict { accepted: false, signature: format!("{stage}: {}", fold(&first)) }
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
pub type TargetFn = Arc<dyn Fn(&str) -> Verdict + Send + Sync>;

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

/// The in-process target of that name.
pub fn by_name(name: &str) -> Option<Target> {
    let (kind, run): (Kind, fn(&str) -> Verdict) = match name {
        "puz" => (Kind::Puz, puz),
        "mine" => (Kind::Mine, mine),
        "fzn" => (Kind::Fzn, fzn),
        _ => return None,
    };
    Some(Target { name: NAMES.iter().find(|&&n| n == name)?, kind, run: Arc::new(run) })
}

/// A `.puz` file, as `cpsolve check` reads it: parse; then a puzzle with its own solver
/// is checked by that solver, anything else compiled for the engine (with its `option
/// part` line read as the runner reads it). Nothing is searched: a search may rightly
/// take forever, a compile may not.
pub fn puz(text: &str) -> Verdict {
    let file = match cpsolve_dsl::parse(text) {
        Ok(file) => file,
        Err(errors) => return Verdict::rejected("parse", errors.into_iter().map(|d| d.message)),
    };
    if let Some(kind) = cpsolve_models::direct::direct_kind(&file) {
        return match cpsolve_models::direct::check(kind, &file) {
            Ok(_) => Verdict::accepted(&format!("{kind:?}")),
            Err(errors) => Verdict::rejected(&format!("{kind:?}"), errors.into_iter().map(|d| d.message)),
        };
    }
    if let Err(errors) = cpsolve_models::part(&file) {
        return Verdict::rejected("part", errors.into_iter().map(|d| d.message));
    }
    match cpsolve_models::compile(&file) {
        Ok(problem) => {
            // Dropping the problem is part of the run: drops walk the trees too.
            drop(problem);
            Verdict::accepted("compile")
        }
        Err(errors) => Verdict::rejected("compile", errors.into_iter().map(|d| d.message)),
    }
}

/// A JSMinesweeper `.mine` position, read and described.
pub fn mine(text: &str) -> Verdict {
    match cpsolve_models::minesweeper::check_mine_file(text) {
        Ok(_) => Verdict::accepted("mine"),
        Err(errors) => Verdict::rejected("mine", errors.into_iter().map(|d| d.message)),
    }
}

/// A FlatZinc text, parsed and compiled into engine variables and propagators.
pub fn fzn(text: &str) -> Verdict {
    match cpsolve_flatzinc::load(text) {
        Ok(model) => {
            drop(model);
            Verdict::accepted("fzn")
        }
        Err(error) => Verdict::rejected("fzn", [error.message]),
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
        assert!(puz("let n = 4\nvar q[1..n] in 1..n\nalldifferent(q)\n").accepted);
        assert!(puz("queens n = 8\n").accepted);
        assert!(puz("compte 100 2 1 10 4 3 -> 819\n").accepted);
        assert!(!puz("let = \n").accepted);
        assert!(mine("2x1x1\nH1\n").accepted);
        assert!(!mine("2x1\n").accepted);
        assert!(fzn("var 1..3: x;\nsolve satisfy;\n").accepted);
        assert!(!fzn("var 1..3 x\n").accepted);
    }
}
