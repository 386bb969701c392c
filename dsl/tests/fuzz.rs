//! `parse` and `render` must never panic, whatever the input: random bytes, random token
//! soups, and mangled versions of valid files. Errors must carry at least one diagnostic,
//! each with a span inside the source on character boundaries.

mod common;

use cpsolve_dsl::{parse, render};
use proptest::prelude::*;

/// Valid files to mangle.
const SEEDS: &[&str] = &[
    "var S, E, N, D in 0..9\nalldifferent(S, E, N, D)\nS != 0\nsolve all\n",
    "let n = 8\nvar q[1..n] in 1..n\nalldifferent([q[i] + i | i in 1..n])\nsolve count\n",
    "var x[1..9, 1..9] in 1..9\nforall b in 0..2, c in 0..2: alldifferent([x[3*b + i, 3*c + j] | i in 1..3, j in 1..3])\ngiven x =\n  5 3 . . 7\n  6 . . 1 9\nsolve all\n",
    "cryptarithm MARI+FEMME+12.ENFANT=FAMILLE\noption leading-zeros = false\n",
    "queens n = 8\noption fix = 5, 2\noption symmetry = distinct\n",
    "compte 100 2 1 10 4 3 -> 819\nsolve all\n",
    "minesweeper mines = 10\n. . 1 F\n..1F\n? * 2 .\n",
    "numbermatch cols = 9\noption rules = classic\n1 2 3 4 5 6 7 8 9\n1 1 1\n",
    "minimize sum([q[i] | i in 1..n where i > 1]) -> a <-> not b\n",
];

const VOCABULARY: &[&str] = &[
    "let",
    "var",
    "in",
    "forall",
    "where",
    "given",
    "solve",
    "first",
    "minimize",
    "maximize",
    "option",
    "cryptarithm",
    "queens",
    "nothreeinline",
    "minesweeper",
    "numbermatch",
    "compte",
    "true",
    "false",
    "not",
    "and",
    "or",
    "div",
    "mod",
    "x",
    "q",
    "SEND",
    "é",
    "1",
    "0",
    "-3",
    "99999999999999999999",
    "0x",
    "12.",
    "+",
    "-",
    "*",
    "/",
    "%",
    "++",
    "==",
    "=",
    "!=",
    "<",
    "<=",
    "->",
    "<->",
    "..",
    ".",
    ",",
    ":",
    "|",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "@",
    "\\",
    "/\\",
    "\\/",
    "leading-zeros",
    "# c",
    "\n",
    "\n",
    "\r\n",
    "\n\n",
    "\t",
    "5 3 .",
    "..1F",
    "F",
    "?",
];

fn check(source: &str) {
    match parse(source) {
        Ok(file) => common::check_spans(&file, source),
        Err(errors) => {
            assert!(!errors.is_empty());
            for error in &errors {
                let span = &error.span;
                assert!(span.start <= span.end && span.end <= source.len(), "{source:?}: {error:?}");
                assert!(
                    source.is_char_boundary(span.start) && source.is_char_boundary(span.end),
                    "{source:?}: {error:?}"
                );
            }
            let plain = render("fuzz.puz", source, &errors, false);
            assert!(plain.starts_with("error"), "{plain}");
            let _ = render("fuzz.puz", source, &errors, true);
        }
    }
}

fn soup() -> impl Strategy<Value = String> {
    let word = proptest::sample::select(VOCABULARY);
    let separator = proptest::sample::select(&["", " ", " ", "\n"][..]);
    proptest::collection::vec((word, separator), 0..40)
        .prop_map(|parts| parts.into_iter().flat_map(|(w, s)| [w, s]).collect())
}

/// A seed file with one slice replaced by a vocabulary word (or removed).
fn mangled() -> impl Strategy<Value = String> {
    let seed = proptest::sample::select(SEEDS);
    let word = proptest::sample::select(VOCABULARY);
    (seed, any::<prop::sample::Index>(), 0usize..6, word, any::<bool>()).prop_map(|(seed, at, len, word, insert)| {
        let chars: Vec<char> = seed.chars().collect();
        let start = at.index(chars.len() + 1);
        let end = (start + len).min(chars.len());
        let mut out: String = chars[..start].iter().collect();
        if insert {
            out.push_str(word);
        }
        out.extend(&chars[end..]);
        out
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_text_never_panics(source in any::<String>()) {
        check(&source);
    }

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        check(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn token_soups_never_panic(source in soup()) {
        check(&source);
    }

    #[test]
    fn mangled_files_never_panic(source in mangled()) {
        check(&source);
    }
}

#[test]
fn seeds_parse() {
    for seed in SEEDS {
        assert!(parse(seed).is_ok(), "{seed}: {:?}", parse(seed));
    }
}

#[test]
fn very_deep_statements_are_rejected_not_overflowed() {
    for source in [
        format!("x == {}", vec!["1"; 200_000].join(" + ")),
        format!("x == {}1", "-".repeat(200_000)),
        format!("x == {}1{}", "(".repeat(200_000), ")".repeat(200_000)),
        format!("x == {}1", "not ".repeat(200_000)),
    ] {
        let errors = parse(&source).expect_err("too deep");
        assert_eq!(errors[0].message, "statement nested too deeply");
    }
    let long_but_flat = format!("x == [{}]", vec!["1"; 200_000].join(", "));
    assert!(parse(&long_but_flat).is_ok());
}
