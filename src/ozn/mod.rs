//! Printing a MiniZinc model's solutions as its output item says, inside cpsolve.
//!
//! Flattening a model leaves two files: the FlatZinc that cpsolve solves, and the output
//! specification (`.ozn`), a small MiniZinc program of the model's parameters, the
//! FlatZinc's output variables and the output item that prints them. MiniZinc's own printer
//! (`minizinc --ozn-file`) reads it with the whole standard library, which costs a small
//! model more than its solving (notes/mzn-output.md). Most specifications use a small part of
//! the language: `show`, `format`, concatenation, comprehensions, `if`, `let`, arithmetic.
//! [`Printer`] evaluates those, as MiniZinc's printer does:
//! - each solution (its `name = value;` lines up to `----------`) prints the output item's
//!   text, a newline if the text is not empty and does not end with one, then `----------`;
//!   a solution whose text was printed already prints nothing;
//! - comment lines (`% ...`) and status lines (`==========`, `=====UNKNOWN=====`, ...) are
//!   copied as they come.
//!
//! A specification outside that part is refused when read ([`Printer::new`]), and the caller
//! runs MiniZinc's printer instead. A solution that cannot be evaluated after all (a
//! division by zero in the output item, an index out of its range) is [`Failed`]: the caller
//! hands MiniZinc the whole stream so far ([`Failed::replay`]) and skips what was printed
//! already ([`Failed::printed`]), so the output stays MiniZinc's to the byte.

mod builtins;
mod eval;
mod syntax;

use std::collections::{HashMap, HashSet};

pub(crate) use syntax::Unsupported;
use syntax::{Expr, Spec};

const SEPARATOR: &str = "----------";

/// The in-process printer of one output specification.
pub(crate) struct Printer {
    spec: Spec,
    /// The texts printed, each once.
    printed: HashSet<String>,
    /// The lines of the solution being read.
    pending: String,
    /// Everything read, for MiniZinc should a later solution fail.
    replay: String,
    /// How many bytes were printed.
    written: usize,
}

/// A solution the printer could not evaluate.
#[derive(Debug)]
pub(crate) struct Failed {
    pub(crate) why: Unsupported,
    /// The whole stream read so far, the failing solution included.
    pub(crate) replay: String,
    /// How many bytes of MiniZinc's output for `replay` are printed already.
    pub(crate) printed: usize,
}

impl Printer {
    /// The printer of the specification `text`, or why it is left to MiniZinc.
    pub(crate) fn new(text: &str) -> Result<Printer, Unsupported> {
        let spec = syntax::spec(text)?;
        let mut calls = Vec::new();
        for decl in &spec.decls {
            if let Some(value) = &decl.value {
                called(value, &mut calls);
            }
            for set in decl.index_sets.iter().flatten().flatten() {
                called(set, &mut calls);
            }
        }
        called(&spec.output, &mut calls);
        if let Some(unknown) = calls.iter().find(|name| !builtins::KNOWN.contains(&name.as_str())) {
            return Err(Unsupported(format!("a call of `{unknown}`")));
        }
        Ok(Printer { spec, printed: HashSet::new(), pending: String::new(), replay: String::new(), written: 0 })
    }

    /// Reads `text` (whole lines of cpsolve's FlatZinc output); returns what to print.
    pub(crate) fn feed(&mut self, text: &str) -> Result<String, Failed> {
        self.replay.push_str(text);
        let mut out = String::new();
        for line in text.split_inclusive('\n') {
            let bare = line.trim_end_matches('\n');
            if bare == SEPARATOR {
                let block = std::mem::take(&mut self.pending);
                let printed = self.solution(&block).map_err(|why| Failed {
                    why,
                    replay: std::mem::take(&mut self.replay),
                    printed: self.written + out.len(),
                })?;
                if self.printed.insert(printed.clone()) {
                    out.push_str(&printed);
                    // MiniZinc ends a solution's text with a newline before the separator.
                    if !printed.is_empty() && !printed.ends_with('\n') {
                        out.push('\n');
                    }
                    out.push_str(SEPARATOR);
                    out.push('\n');
                }
            } else if bare.starts_with('%') || bare.starts_with("=====") {
                out.push_str(line);
            } else {
                self.pending.push_str(line);
            }
        }
        self.written += out.len();
        Ok(out)
    }

    /// The output item's text for one solution's assignments.
    fn solution(&self, block: &str) -> Result<String, Unsupported> {
        let scope = eval::Scope::new(&self.spec.decls, HashMap::new());
        for (name, expr) in syntax::assignments(block)? {
            let value = scope.eval(&expr, &eval::Locals::default())?;
            scope.set_solution_value(&name, value)?;
        }
        match scope.eval(&self.spec.output, &eval::Locals::default())? {
            eval::Value::Array(_, items) => items
                .into_iter()
                .map(|item| match item {
                    eval::Value::Str(s) => Ok(s),
                    other => Err(Unsupported(format!("the output item holds {other:?}"))),
                })
                .collect(),
            other => Err(Unsupported(format!("the output item is {other:?}"))),
        }
    }
}

/// The names of the functions `e` calls.
fn called(e: &Expr, out: &mut Vec<String>) {
    let each = |items: &[Expr], out: &mut Vec<String>| items.iter().for_each(|i| called(i, out));
    match e {
        Expr::Int(_) | Expr::Bool(_) | Expr::Str(_) | Expr::Name(_) => {}
        Expr::Array(items) | Expr::Set(items) => each(items, out),
        Expr::Array2d(rows) => rows.iter().for_each(|row| each(row, out)),
        Expr::Keyed { keys, body, generators } => {
            each(keys, out);
            called(&Expr::Comprehension { body: body.clone(), generators: generators.clone(), set: false }, out);
        }
        Expr::Comprehension { body, generators, .. } => {
            called(body, out);
            for g in generators {
                called(&g.source, out);
                g.condition.iter().for_each(|c| called(c, out));
            }
        }
        Expr::Index(array, indices) => {
            called(array, out);
            each(indices, out);
        }
        Expr::Call(name, args) => {
            out.push(name.clone());
            each(args, out);
        }
        Expr::Unary(_, e) => called(e, out),
        Expr::Binary(_, a, b) => {
            called(a, out);
            called(b, out);
        }
        Expr::If(branches, otherwise) => {
            for (c, t) in branches {
                called(c, out);
                called(t, out);
            }
            called(otherwise, out);
        }
        Expr::Let(decls, body) => {
            for d in decls {
                d.value.iter().for_each(|v| called(v, out));
            }
            called(body, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BIBD: &str = r#"output ["bibd: (v = ",show(v),")\n"]++[if j > b then "\n" else show(bool2int(m[i,j])) endif | i in rows, j in 1..b+1];
int: b = 1;
int: v = 3;
set of int: rows = 1..3;
array [rows,1..1] of bool: m;
"#;

    #[test]
    fn a_solution_prints_its_text_once_and_status_lines_pass() {
        let mut printer = Printer::new(BIBD).expect("in the subset");
        let one = "m = array2d(1..3, 1..1, [true, false, true]);\n----------\n";
        assert_eq!(printer.feed(one).expect("evaluates"), "bibd: (v = 3)\n1\n0\n1\n----------\n");
        // The same text again is the same answer: printed once, as MiniZinc's printer does.
        assert_eq!(printer.feed(one).expect("evaluates"), "");
        assert_eq!(printer.feed("% a comment\n==========\n").expect("passes"), "% a comment\n==========\n");
    }

    #[test]
    fn a_function_outside_the_subset_is_left_to_minizinc() {
        let spec = "output [showJSON(a)];\n";
        assert!(Printer::new(spec).is_err());
        assert!(Printer::new("function int: f(int: x) = x;\noutput [];\n").is_err());
    }

    #[test]
    fn a_solution_that_fails_hands_over_the_whole_stream() {
        let mut printer = Printer::new("array [1..2] of int: x;\noutput [show(x[1] div x[2])];\n").expect("subset");
        assert_eq!(printer.feed("x = array1d(1..2, [6, 3]);\n----------\n").expect("evaluates"), "2\n----------\n");
        let failed = printer.feed("x = array1d(1..2, [6, 0]);\n----------\n").expect_err("a division by zero");
        assert_eq!(failed.printed, "2\n----------\n".len());
        assert!(failed.replay.starts_with("x = array1d(1..2, [6, 3]);"), "{}", failed.replay);
    }
}
