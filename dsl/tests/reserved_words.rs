//! The reserved words listed in docs/language.md are exactly the lexer's keywords: the
//! words of `tokens.rs` written `#[token("word")]`.

use std::collections::BTreeSet;

fn read(path: &str) -> String {
    let full = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

/// The alphabetic words of the `#[token("…")]` attributes.
fn lexer_keywords() -> BTreeSet<String> {
    read("src/tokens.rs")
        .lines()
        .filter_map(|line| line.trim().strip_prefix("#[token(\"")?.split('"').next().map(str::to_owned))
        .filter(|word| word.chars().all(|c| c.is_ascii_alphabetic()))
        .collect()
}

/// The words in backquotes of the paragraph that follows "## Reserved words" and its
/// introduction.
fn documented() -> BTreeSet<String> {
    let text = read("../docs/language.md");
    let section = text.split("## Reserved words").nth(1).expect("docs/language.md has a Reserved words section");
    let list = section.split("\n\n").nth(2).expect("the list is the section's second paragraph");
    list.split('`').skip(1).step_by(2).map(str::to_owned).collect()
}

#[test]
fn the_documented_reserved_words_are_the_lexers() {
    let keywords = lexer_keywords();
    assert!(keywords.contains("let") && keywords.contains("xor"), "{keywords:?}");
    assert_eq!(documented(), keywords);
}

#[test]
fn a_reserved_word_is_not_a_name() {
    for word in lexer_keywords() {
        let errors = cpsolve_dsl::parse(&format!("let {word} = 3")).expect_err(&word);
        assert!(!errors.is_empty(), "{word}");
    }
}
