//! One test per statement form of docs/language.md, plus the layout rules (line breaks, grids) and
//! the errors a user is most likely to meet.

mod common;

use common::{check_spans, show, show_generators};
use cpsolve_dsl::ast::{Expr, File, Item, OptionValue, PuzzleKind, Sense, SolveMode, Spanned};
use cpsolve_dsl::{parse, Diagnostic};

fn parse_ok(source: &str) -> File {
    let file = parse(source).unwrap_or_else(|errors| panic!("{source:?} failed: {errors:#?}"));
    check_spans(&file, source);
    file
}

fn items(source: &str) -> Vec<Item> {
    parse_ok(source).items.into_iter().map(|item| item.node).collect()
}

fn only_item(source: &str) -> Item {
    let mut all = items(source);
    assert_eq!(all.len(), 1, "{all:#?}");
    all.remove(0)
}

fn constraint(source: &str) -> String {
    match only_item(source) {
        Item::Constraint(expr) => show(&expr),
        other => panic!("not a constraint: {other:#?}"),
    }
}

fn errors(source: &str) -> Vec<Diagnostic> {
    let errors = parse(source).expect_err("should not parse");
    for error in &errors {
        assert!(error.span.end <= source.len(), "{error:?}");
    }
    errors
}

/// The message and the offending text of each error.
fn error_texts(source: &str) -> Vec<(String, String)> {
    errors(source).into_iter().map(|d| (d.message, source[d.span].to_owned())).collect()
}

fn text(source: &str, span: &std::ops::Range<usize>) -> String {
    source[span.clone()].to_owned()
}

#[test]
fn let_binds_an_expression() {
    let source = "let n = 2 * 4";
    let Item::Let { name, value, .. } = only_item(source) else { panic!() };
    assert_eq!(name.node, "n");
    assert_eq!(text(source, &name.span), "n");
    assert_eq!(show(&value), "(2 * 4)");
    assert_eq!(text(source, &value.span), "2 * 4");
}

#[test]
fn var_declares_scalars_and_arrays() {
    let Item::Var { decls, domain } = only_item("var S, E, N in 0..9") else { panic!() };
    let names: Vec<_> = decls.iter().map(|d| (d.name.node.as_str(), d.dims.len())).collect();
    assert_eq!(names, [("S", 0), ("E", 0), ("N", 0)]);
    assert_eq!(show(&domain), "(0..9)");

    let Item::Var { decls, domain } = only_item("var q[1..n] in 1..n") else { panic!() };
    assert_eq!(decls[0].dims.iter().map(show).collect::<Vec<_>>(), ["(1..n)"]);
    assert_eq!(show(&domain), "(1..n)");

    let Item::Var { decls, .. } = only_item("var x[1..9, 1..9] in 1..9") else { panic!() };
    assert_eq!(decls[0].dims.len(), 2);

    let Item::Var { domain, .. } = only_item("var b in {1, 3, 5, 7}") else { panic!() };
    assert_eq!(show(&domain), "{1, 3, 5, 7}");

    let Item::Var { decls, .. } = only_item("var a, t[0..2], c in 0..1") else { panic!() };
    assert_eq!(decls.iter().map(|d| d.dims.len()).collect::<Vec<_>>(), [0, 1, 0]);
}

#[test]
fn constraints_are_expressions_on_their_own_line() {
    assert_eq!(constraint("S != 0"), "(S != 0)");
    assert_eq!(constraint("alldifferent(S, E, N)"), "alldifferent(S, E, N)");
    assert_eq!(constraint("alldifferent(q)"), "alldifferent(q)");
    assert_eq!(constraint("f()"), "f()");
    assert_eq!(constraint("alldifferent([q[i] + i | i in 1..n])"), "alldifferent([(q[i] + i) | i in (1..n)])");
    assert_eq!(
        constraint("alldifferent([q[i] | i in 1..n] ++ [q[i] + i | i in 1..n])"),
        "alldifferent(([q[i] | i in (1..n)] ++ [(q[i] + i) | i in (1..n)]))"
    );
    assert_eq!(constraint("sum([x[i, j] | j in 1..9]) == 45"), "(sum([x[i, j] | j in (1..9)]) == 45)");
    assert_eq!(
        constraint("[a | i, j in 1..n where i < j, k in 1..2]"),
        "[a | i, j in (1..n) where (i < j), k in (1..2)]"
    );
    assert_eq!(constraint("count([a, b,], 1) = {}"), "(count([a, b], 1) == {})");
    assert_eq!(constraint("x = true or false"), "((x == true) or false)");
}

#[test]
fn precedence_follows_the_spec() {
    assert_eq!(constraint("a <-> b -> c -> d"), "(a <-> (b -> (c -> d)))");
    assert_eq!(constraint("a or b and not c == d"), "(a or (b and (not (c == d))))");
    assert_eq!(constraint("a /\\ b \\/ c"), "((a and b) or c)");
    assert_eq!(constraint("x == 1..n ++ m + 1"), "(x == (1..(n ++ (m + 1))))");
}

#[test]
fn arithmetic_precedence_and_synonyms() {
    assert_eq!(constraint("-a * b + c / d - e mod f == 0"), "(((((-a) * b) + (c / d)) - (e mod f)) == 0)");
    assert_eq!(constraint("a div 2 mod 3 = 1"), "(((a / 2) mod 3) == 1)");
    assert_eq!(constraint("2 * -x - -3 >= 1"), "(((2 * (-x)) - (-3)) >= 1)");
    assert_eq!(constraint("(a + b) * c <= 10"), "(((a + b) * c) <= 10)");
}

#[test]
fn spans_cover_whole_expressions_including_parentheses() {
    let source = "(a + b) * c[i, 2] > 0";
    let Item::Constraint(expr) = only_item(source) else { panic!() };
    assert_eq!(text(source, &expr.span), source);
    let Expr::Binary { lhs, .. } = &expr.node else { panic!() };
    assert_eq!(text(source, &lhs.span), "(a + b) * c[i, 2]");
    let Expr::Binary { lhs: paren, rhs: index, .. } = &lhs.node else { panic!() };
    assert_eq!(text(source, &paren.span), "(a + b)");
    assert_eq!(text(source, &index.span), "c[i, 2]");
}

#[test]
fn relations_do_not_chain() {
    assert_eq!(error_texts("a < b < c"), [("unexpected `<`".to_owned(), "<".to_owned())]);
}

#[test]
fn forall_takes_generators_filters_and_nested_bodies() {
    let source = "forall b in 0..2, c in 0..2: alldifferent([x[3*b + i, 3*c + j] | i in 1..3, j in 1..3])";
    let Item::Forall { generators, body } = only_item(source) else { panic!() };
    assert_eq!(show_generators(&generators), "b in (0..2), c in (0..2)");
    let Item::Constraint(expr) = &body.node else { panic!() };
    assert_eq!(show(expr), "alldifferent([x[((3 * b) + i), ((3 * c) + j)] | i in (1..3), j in (1..3)])");
    assert_eq!(text(source, &body.span), &source[29..]);

    let Item::Forall { generators, body } =
        only_item("forall i, j in 1..n where i < j:\n  forall k in 1..2: q[i] != q[j] + k")
    else {
        panic!()
    };
    assert_eq!(show_generators(&generators), "i, j in (1..n) where (i < j)");
    let Item::Forall { body: inner, .. } = &body.node else { panic!() };
    let Item::Constraint(expr) = &inner.node else { panic!() };
    assert_eq!(show(expr), "(q[i] != (q[j] + k))");
}

#[test]
fn given_reads_raw_rows() {
    let source = "var x[1..2, 1..3] in 1..9\ngiven x =\n  5 3 .   # first row\n  -6 . 1\n\nsolve all\n";
    let all = parse_ok(source).items;
    let Item::Given { name, rows } = &all[1].node else { panic!() };
    assert_eq!(name.node, "x");
    let texts: Vec<_> = rows.iter().map(|r| (r.text.as_str(), text(source, &r.span))).collect();
    assert_eq!(texts, [("5 3 .", "5 3 .".to_owned()), ("-6 . 1", "-6 . 1".to_owned())]);
    assert_eq!(text(source, &all[1].span), "given x =\n  5 3 .   # first row\n  -6 . 1");
    let words: Vec<_> = rows[1].words().map(|(w, span)| (w, text(source, &span))).collect();
    assert_eq!(words, [("-6", "-6".to_owned()), (".", ".".to_owned()), ("1", "1".to_owned())]);
    assert!(matches!(all[2].node, Item::Solve(Spanned { node: SolveMode::All, .. })));
}

#[test]
fn given_without_rows_is_an_error_at_the_end_of_its_line() {
    let source = "given x =\nsolve all";
    let errors = errors(source);
    assert_eq!(errors[0].message, "unexpected end of line");
    assert_eq!(errors[0].span, 9..9);
    assert_eq!(errors[0].notes, ["expected a grid row"]);
}

#[test]
fn solve_modes() {
    for (word, mode) in [("first", SolveMode::First), ("all", SolveMode::All), ("count", SolveMode::Count)] {
        let Item::Solve(found) = only_item(&format!("solve {word}")) else { panic!() };
        assert_eq!(found.node, mode);
        assert_eq!(found.span, 6..6 + word.len());
    }
    assert_eq!(error_texts("solve firts"), [("unknown solve mode `firts`".to_owned(), "firts".to_owned())]);
}

#[test]
fn minimize_and_maximize() {
    let Item::Optimize { sense, objective } = only_item("minimize sum(q) + 1") else { panic!() };
    assert_eq!((sense.node, sense.span), (Sense::Minimize, 0..8));
    assert_eq!(show(&objective), "(sum(q) + 1)");
    let Item::Optimize { sense, .. } = only_item("maximize x") else { panic!() };
    assert_eq!(sense.node, Sense::Maximize);
}

#[test]
fn options_take_dashed_names_and_several_values() {
    let source =
        "option leading-zeros = false\noption fix = 5, -2\noption symmetry = distinct\noption first-click = true";
    let all = items(source);
    let options: Vec<_> = all
        .iter()
        .map(|item| match item {
            Item::Option { name, values } => {
                (name.node.clone(), values.iter().map(|v| v.node.clone()).collect::<Vec<_>>())
            }
            other => panic!("{other:#?}"),
        })
        .collect();
    assert_eq!(
        options,
        [
            ("leading-zeros".to_owned(), vec![OptionValue::Bool(false)]),
            ("fix".to_owned(), vec![OptionValue::Int(5), OptionValue::Int(-2)]),
            ("symmetry".to_owned(), vec![OptionValue::Word("distinct".to_owned())]),
            ("first-click".to_owned(), vec![OptionValue::Bool(true)]),
        ]
    );
    let Item::Option { name, values } = &all[1] else { panic!() };
    assert_eq!(text(source, &name.span), "fix");
    assert_eq!(text(source, &values[1].span), "-2");
}

#[test]
fn cryptarithms_accept_coefficients_and_constants() {
    let crypt = |source: &str| match only_item(source) {
        Item::Cryptarithm { lhs, rhs } => format!("{} = {}", show(&lhs), show(&rhs)),
        other => panic!("{other:#?}"),
    };
    assert_eq!(crypt("cryptarithm SEND+MORE=MONEY"), "(SEND + MORE) = MONEY");
    assert_eq!(crypt("cryptarithm SEND + MORE == MONEY"), "(SEND + MORE) = MONEY");
    assert_eq!(crypt("cryptarithm MARI+FEMME+12.ENFANT=FAMILLE"), "((MARI + FEMME) + (12 * ENFANT)) = FAMILLE");
    assert_eq!(crypt("cryptarithm MARI + FEMME + 12*ENFANT = FAMILLE"), "((MARI + FEMME) + (12 * ENFANT)) = FAMILLE");
    assert_eq!(crypt("cryptarithm MOT+MOT+MOT+1=TOM"), "(((MOT + MOT) + MOT) + 1) = TOM");
    assert_eq!(crypt("cryptarithm -a + bc*2 = d - E"), "((-a) + (bc * 2)) = (d - E)");
    let source = "cryptarithm 6.TESTS+QI=MENSA";
    let Item::Cryptarithm { lhs, .. } = only_item(source) else { panic!() };
    assert_eq!(text(source, &lhs.span), "6.TESTS+QI");
}

#[test]
fn cryptarithm_without_equals_expects_one() {
    let errors = errors("cryptarithm LES+MATHS+ELLES+AIMENT\n");
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].message, "unexpected end of line");
    assert_eq!(errors[0].span, 34..34);
    assert!(errors[0].notes[0].contains("`=`"), "{:?}", errors[0].notes);
}

#[test]
fn queens_and_nothreeinline_take_parameters() {
    let Item::Puzzle { kind, params, rows } = only_item("queens n = 8") else { panic!() };
    assert_eq!(kind.node, PuzzleKind::Queens);
    assert_eq!(params.len(), 1);
    assert_eq!((params[0].name.node.as_str(), show(&params[0].value)), ("n", "8".to_owned()));
    assert!(rows.is_empty());
    let Item::Puzzle { kind, .. } = only_item("nothreeinline n = 10") else { panic!() };
    assert_eq!(kind.node, PuzzleKind::NoThreeInLine);
}

#[test]
fn minesweeper_rows_are_raw_lines() {
    let source = "minesweeper\n..1F\n? * 2 .  # comment\n";
    let Item::Puzzle { kind, params, rows } = only_item(source) else { panic!() };
    assert_eq!(kind.node, PuzzleKind::Minesweeper);
    assert!(params.is_empty());
    let texts: Vec<_> = rows.iter().map(|r| r.text.as_str()).collect();
    assert_eq!(texts, ["..1F", "? * 2 ."]);
    let cells: String = rows[1].chars().map(|(c, _)| c).collect();
    assert_eq!(cells, "?*2.");
}

#[test]
fn minesweeper_rows_with_bad_cells_are_left_to_the_model() {
    let Item::Puzzle { params, rows, .. } = only_item("minesweeper mines = 3\n. . 1\n. 9 x\n") else { panic!() };
    assert_eq!(params[0].name.node, "mines");
    assert_eq!(rows.iter().map(|r| r.text.as_str()).collect::<Vec<_>>(), [". . 1", ". 9 x"]);
}

#[test]
fn numbermatch_rows_may_follow_option_lines() {
    let source = "numbermatch cols = 9 adds = 5\noption rules = classic\n1 2 3 4 5 6 7 8 9\n1 1 1\nsolve first\n";
    let all = parse_ok(source).items;
    let Item::Puzzle { kind, params, rows } = &all[0].node else { panic!() };
    assert_eq!(kind.node, PuzzleKind::NumberMatch);
    let params: Vec<_> = params.iter().map(|p| (p.name.node.as_str(), show(&p.value))).collect();
    assert_eq!(params, [("cols", "9".to_owned()), ("adds", "5".to_owned())]);
    assert_eq!(rows.len(), 2);
    assert!(matches!(all[1].node, Item::Option { .. }));
    assert!(matches!(all[2].node, Item::Solve(_)));
}

#[test]
fn grid_puzzle_without_rows_parses() {
    let Item::Puzzle { rows, .. } = only_item("minesweeper mines = 10\n") else { panic!() };
    assert!(rows.is_empty());
}

#[test]
fn a_second_grid_is_an_error() {
    let source = "minesweeper\n. .\n\n. .\n";
    assert_eq!(error_texts(source), [("unexpected grid row".to_owned(), ". .".to_owned())]);
    assert_eq!(errors(source)[0].span, 17..20);
}

#[test]
fn compte_lists_tiles_and_target() {
    let source = "compte 100 2 1 10 4 3 -> 819";
    let Item::Compte { tiles, target } = only_item(source) else { panic!() };
    assert_eq!(tiles.iter().map(|t| t.node).collect::<Vec<_>>(), [100, 2, 1, 10, 4, 3]);
    assert_eq!((target.node, text(source, &target.span)), (819, "819".to_owned()));
}

#[test]
fn compte_without_arrow_expects_one() {
    let errors = errors("compte 100 2 1 10 4 3 819");
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].span, 25..25);
    assert_eq!(errors[0].notes, ["expected one of `->`, an integer"]);
}

#[test]
fn long_statements_wrap_after_operators_and_inside_brackets() {
    let source = "1000*S + 100*E +\n  10*N == 5\nalldifferent(\n  S,\n\n  # a comment\n  E)\nx ->\ny\n";
    let all = items(source);
    assert_eq!(all.len(), 3);
    let Item::Constraint(first) = &all[0] else { panic!() };
    assert_eq!(show(first), "((((1000 * S) + (100 * E)) + (10 * N)) == 5)");
}

#[test]
fn line_endings_and_final_newline_do_not_matter() {
    // The trees differ only by their spans.
    let shape = |source: &str| {
        let debug = format!("{:?}", items(source));
        let mut out = String::new();
        for (i, part) in debug.split("span: ").enumerate() {
            let rest = if i == 0 { part } else { part.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.') };
            out.push_str(rest);
        }
        out
    };
    let unix = shape("let n = 8\nvar q[1..n] in 1..n\nsolve all\n");
    assert_eq!(shape("let n = 8\r\nvar q[1..n] in 1..n\r\nsolve all\r\n"), unix);
    assert_eq!(shape("\n# header\n\nlet n = 8\n\n\nvar q[1..n] in 1..n\nsolve all"), unix);
    assert!(items("").is_empty());
    assert!(items("# nothing\n\n").is_empty());
}

#[test]
fn names_are_case_sensitive_and_keywords_lower_case() {
    assert_eq!(constraint("Let + SOLVE == In"), "((Let + SOLVE) == In)");
    assert_eq!(constraint("déjà == 1"), "(déjà == 1)");
}

#[test]
fn bad_numbers_point_at_the_number() {
    let source = "queens n = 0x";
    let errors = errors(source);
    assert_eq!(errors.len(), 1);
    assert_eq!(text(source, &errors[0].span), "0x");
    assert_eq!(error_texts("let n = 99999999999999999999")[0].1, "99999999999999999999");
}

#[test]
fn unexpected_end_of_file_points_at_the_end() {
    let source = "x + \n";
    let errors = errors(source);
    assert_eq!(errors[0].message, "unexpected end of file");
    assert_eq!(errors[0].span, 3..3);
    assert!(errors[0].notes[0].contains("an expression"), "{:?}", errors[0].notes);
}

#[test]
fn errors_of_several_lines_are_all_reported() {
    let source = "let = 3\nvar x in 0..@9\nx + y z\nsolve all\nqueens n = 8 9\n";
    let found = error_texts(source);
    let offending: Vec<_> = found.iter().map(|(_, text)| text.as_str()).collect();
    assert_eq!(offending, ["=", "@", "z", "9"], "{found:#?}");
    assert_eq!(found[1].0, "unexpected character `@`");
}

#[test]
fn unicode_in_comments_and_errors_keeps_spans_on_char_boundaries() {
    let source = "# élégant\nx == « 3";
    let errors = errors(source);
    assert_eq!(text(source, &errors[0].span), "«");
    let rendered = cpsolve_dsl::render("f.puz", source, &errors, false);
    assert!(rendered.contains("f.puz:2:6"), "{rendered}");
}

#[test]
fn rendered_errors_of_several_lines() {
    let source = "let = 3\nvar x in 0..@9\nx + y z\nsolve firts\nqueens n = 8 9\ngiven x =\n\nx == (1 +\n";
    let errors = errors(source);
    insta::assert_snapshot!(cpsolve_dsl::render("several.puz", source, &errors, false));
}
