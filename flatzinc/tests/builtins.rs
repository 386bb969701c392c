//! Every FlatZinc builtin against brute force: for each, a small model with that one
//! constraint over small domains; the solutions cpsolve enumerates must be exactly the
//! assignments that satisfy the builtin's definition (the checker of `check.rs`, written
//! from the FlatZinc specification independently of how the builtin is posted). A builtin
//! posted with a wrong sign, a missing case or a wrong reification fails here.

use std::collections::BTreeSet;

use cpsolve_flatzinc::{check, load, solve, Options};

/// Variables of the test models: name and domain.
const INTS: [(&str, i64, i64); 3] = [("x", -3, 3), ("y", -2, 3), ("z", -3, 4)];
const BOOLS: [&str; 4] = ["a", "b", "c", "r"];

fn model_text(constraint: &str) -> String {
    let mut text = String::new();
    for (name, lo, hi) in INTS {
        text.push_str(&format!("var {lo}..{hi}: {name} :: output_var;\n"));
    }
    for name in BOOLS {
        text.push_str(&format!("var bool: {name} :: output_var;\n"));
    }
    text.push_str(&format!("constraint {constraint};\nsolve satisfy;\n"));
    text
}

/// Every assignment of the declared domains (ints then bools, in output order).
fn all_assignments() -> Vec<Vec<i64>> {
    let mut all = vec![Vec::new()];
    let domains: Vec<(i64, i64)> =
        INTS.iter().map(|&(_, lo, hi)| (lo, hi)).chain(BOOLS.iter().map(|_| (0, 1))).collect();
    for (lo, hi) in domains {
        all = all.into_iter().flat_map(|prefix| (lo..=hi).map(move |v| [prefix.clone(), vec![v]].concat())).collect();
    }
    all
}

fn check_builtin(constraint: &str) {
    let text = model_text(constraint);
    let mut model = load(&text).unwrap_or_else(|e| panic!("{constraint}: {e:?}"));
    let written = model.written.clone();
    // Output `k` is the `k`-th declared variable, so an assignment is indexed like `Ref::Var`.
    let expected: BTreeSet<Vec<i64>> = all_assignments()
        .into_iter()
        .filter(|values| {
            let value_of = |i: usize| values[i];
            written
                .iter()
                .all(|w| check::holds(w, &value_of).unwrap_or_else(|| panic!("{constraint}: unknown to the checker")))
        })
        .collect();
    let mut found = BTreeSet::new();
    let options = Options { all: true, verify: true, ..Options::default() };
    solve(&mut model, &options, |_, f| {
        assert!(found.insert(f.values.iter().map(|v| v[0]).collect::<Vec<i64>>()), "{constraint}: a solution twice");
    });
    let missing: Vec<_> = expected.difference(&found).take(3).collect();
    let extra: Vec<_> = found.difference(&expected).take(3).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{constraint}: {} solutions, {} expected; missing {missing:?}, wrong {extra:?}",
        found.len(),
        expected.len()
    );
}

#[test]
fn integer_comparisons_and_their_reifications() {
    for rel in ["eq", "ne", "le", "lt"] {
        check_builtin(&format!("int_{rel}(x, y)"));
        check_builtin(&format!("int_{rel}(x, 1)"));
        check_builtin(&format!("int_{rel}_reif(x, y, r)"));
        check_builtin(&format!("int_{rel}_reif(2, y, r)"));
        check_builtin(&format!("int_{rel}_imp(x, y, r)"));
        check_builtin(&format!("int_{rel}_reif(x, y, true)"));
        check_builtin(&format!("int_{rel}_reif(x, y, false)"));
    }
}

#[test]
fn linear_relations_and_their_reifications() {
    for rel in ["eq", "ne", "le"] {
        check_builtin(&format!("int_lin_{rel}([2, -3, 1], [x, y, z], 1)"));
        check_builtin(&format!("int_lin_{rel}_reif([1, 2], [x, y], 2, r)"));
        check_builtin(&format!("int_lin_{rel}_imp([1, 2], [x, y], 2, r)"));
        check_builtin(&format!("bool_lin_{rel}([1, 2, 3], [a, b, c], 3)"));
        check_builtin(&format!("bool_lin_{rel}([1, 2, -1], [a, b, c], z)"));
    }
}

#[test]
fn arithmetic() {
    for c in [
        "int_plus(x, y, z)",
        "int_times(x, y, z)",
        "int_times(x, 2, z)",
        "int_abs(x, z)",
        "int_min(x, y, z)",
        "int_max(x, y, z)",
        "int_div(x, y, z)",
        "int_div(x, 2, z)",
        "int_div(x, -2, z)",
        "int_mod(x, y, z)",
        "int_mod(x, 3, z)",
        "int_mod(x, 3, 1)",
        "int_div(x, 2, -1)",
        "int_pow(x, y, z)",
        "int_pow(x, 2, z)",
        "array_int_maximum(z, [x, y])",
        "array_int_minimum(z, [x, y, 1])",
    ] {
        check_builtin(c);
    }
}

#[test]
fn booleans() {
    for c in [
        "bool2int(a, x)",
        "bool_not(a, b)",
        "bool_and(a, b, r)",
        "bool_or(a, b, r)",
        "bool_xor(a, b, r)",
        "bool_xor(a, b)",
        "bool_and_imp(a, b, r)",
        "bool_or_imp(a, b, r)",
        "bool_xor_imp(a, b, r)",
        "bool_eq(a, b)",
        "bool_le(a, b)",
        "bool_lt(a, b)",
        "bool_eq_reif(a, b, r)",
        "bool_le_reif(a, b, r)",
        "bool_lt_reif(a, b, r)",
        "bool_eq_reif(a, true, r)",
        "array_bool_and([a, b, c], r)",
        "array_bool_or([a, b, c], r)",
        "array_bool_and([a, b, true], r)",
        "array_bool_or([a, false, c], r)",
        "array_bool_xor([a, b, c])",
        "array_bool_xor([a, b, true])",
        "bool_clause([a, b], [c, r])",
        "bool_clause([a], [])",
        "bool_clause([], [a, b])",
        "bool_clause([a, true], [b])",
        "bool_clause_reif([a, b], [c], r)",
        "bool_clause_imp([a, b], [c], r)",
    ] {
        check_builtin(c);
    }
}

/// Parity equations sharing variables are also eliminated together (Gauss–Jordan): the
/// solutions must stay exactly those of the equations, contradictory systems included.
#[test]
fn parity_systems() {
    for c in [
        "array_bool_xor([a, b, c]);\nconstraint array_bool_xor([b, c, r])",
        "array_bool_xor([a, b, c]);\nconstraint bool_xor(a, b, r);\nconstraint bool_not(c, r)",
        "array_bool_xor([a, b, true]);\nconstraint bool_xor(a, b, r);\nconstraint bool_xor(r, c)",
        "array_bool_xor([a, b, c]);\nconstraint array_bool_xor([a, b, c, true])",
        "array_bool_xor([a, b, c, r]);\nconstraint array_bool_xor([a, b, false]);\nconstraint bool_xor(c, true, r)",
    ] {
        check_builtin(c);
    }
}

#[test]
fn sets_elements_and_globals() {
    for c in [
        "set_in(x, {-2, 0, 3})",
        "set_in(x, -1..2)",
        "set_in_reif(x, {-2, 0, 3}, r)",
        "set_in_imp(x, 1..2, r)",
        "array_int_element(x, [3, -1, 2], z)",
        "array_var_int_element(x, [y, z, 2], z)",
        "array_var_int_element(y, [x, z, 2], z)",
        "array_bool_element(x, [true, false], a)",
        "array_var_bool_element(y, [a, b, c], r)",
        "fzn_all_different_int([x, y, z])",
        "cpsolve_table_int([x, y], [1, 2, -1, 3, 3, 3])",
        "cpsolve_table_bool([a, b], [true, false, false, false])",
    ] {
        check_builtin(c);
    }
}

#[test]
fn scheduling_and_circuits() {
    for c in [
        "fzn_cumulative([x, y, z], [2, 1, 2], [1, 2, 1], 2)",
        "fzn_cumulative([x, y, z], [3, 2, 1], [1, 1, 1], 1)",
        "fzn_cumulative([x, y], [a, 2], [1, b], 1)",
        "fzn_cumulative([x, y, z], [2, 2, 2], [1, 1, 1], y)",
        "fzn_cumulative([x, y], [2, 1], [c, 1], z)",
        "fzn_disjunctive([x, y, z], [2, 1, 3])",
        "fzn_disjunctive([x, y, z], [a, 1, b])",
        "fzn_disjunctive_strict([x, y, z], [a, 1, b])",
        "fzn_disjunctive_strict([x, y], [0, 2])",
        "fzn_diffn([x, y, z], [0, 1, 0], [2, 3, 1], [2, 1, 1])",
        "fzn_diffn([x, y], [z, 0], [2, 1], [1, 2])",
        "fzn_diffn([x, 0], [0, y], [z, 2], [1, 2])",
        "fzn_diffn([x, y], [0, 0], [z, 0], [1, 1])",
        "fzn_diffn_nonstrict([x, y], [0, 0], [z, 0], [1, 1])",
        "fzn_diffn_nonstrict([x, y], [z, 0], [y, 2], [1, x])",
        "cpsolve_circuit([x, y, z], 1)",
        "cpsolve_circuit([x, y, z], -1)",
        "cpsolve_subcircuit([x, y, z], 1)",
        "cpsolve_subcircuit([x, y, z], 0)",
    ] {
        check_builtin(c);
    }
}

#[test]
fn regular_automata() {
    // No three 2s in a row: the state counts the 2s that end the word.
    let no_three_twos = "3, 2, [1, 2, 1, 3, 1, 0], 1";
    // The sum of the symbols modulo 3, plus 1.
    let sum_mod_three = "3, 3, [2, 3, 1, 3, 1, 2, 1, 2, 3], 1";
    for c in [
        format!("cpsolve_regular([x, y, z], {no_three_twos}, 1..3)"),
        format!("cpsolve_regular([x, y, z], {no_three_twos}, {{2, 3}})"),
        format!("cpsolve_regular([x, 2, y], {no_three_twos}, 1..3)"),
        format!("cpsolve_regular([x, y, x], {sum_mod_three}, {{1}})"),
        format!("cpsolve_regular([z, y], {sum_mod_three}, {{2, 3}})"),
        "cpsolve_regular([y, z], 2, 2, [0, 2, 2, 0], 1, {1, 2})".to_string(),
        "cpsolve_regular([], 2, 1, [1, 2], 1, {1})".to_string(),
        "cpsolve_regular([], 2, 1, [1, 2], 1, {2})".to_string(),
    ] {
        check_builtin(&c);
    }
}

#[test]
fn regular_of_the_wrong_shape_is_refused() {
    for c in [
        "cpsolve_regular([x, y], 2, 2, [1, 2, 1], 1, {1})",
        "cpsolve_regular([x, y], 2, 2, [1, 2, 1, 3], 1, {1})",
        "cpsolve_regular([x, y], 2, 2, [1, 2, 1, -1], 1, {1})",
        "cpsolve_regular([x, y], 2, 2, [1, 2, 1, 2], 0, {1})",
        "cpsolve_regular([x, y], 2, 2, [1, 2, 1, 2], 1, {1, 3})",
        "cpsolve_regular([x, y], -1, 2, [], 1, {1})",
    ] {
        let err = load(&model_text(c)).err().unwrap_or_else(|| panic!("{c}: accepted"));
        assert!(err.message.contains("regular") || err.message.contains("argument"), "{c}: {}", err.message);
    }
}

#[test]
fn inverse_lex_and_global_cardinality() {
    for c in [
        "cpsolve_inverse([x, y, z], 1, [z, x, y], 1)",
        "cpsolve_inverse([x, y], 0, [z, 1], -1)",
        "cpsolve_inverse([x, y, z], -1, [x, y, z], -1)",
        "cpsolve_inverse([x, y], 1, [z], 1)",
        "cpsolve_inverse([], 1, [], 1)",
        "cpsolve_lex_less_int([x, y], [z, 1])",
        "cpsolve_lex_lesseq_int([x, y, z], [y, z])",
        "cpsolve_lex_less_int([x], [y, z])",
        "cpsolve_lex_lesseq_int([x, 2], [x, y])",
        "cpsolve_lex_less_int([x, y], [])",
        "cpsolve_lex_less_bool([a, b, c], [b, r, a])",
        "cpsolve_lex_lesseq_bool([a, b], [c, r, true])",
        "cpsolve_lex_less_bool([], [a])",
        "cpsolve_lex_lesseq_bool([a], [])",
        "cpsolve_global_cardinality([x, y, z], [0, 1], [y, a])",
        "cpsolve_global_cardinality([x, y], [1, 1], [z, y])",
        "cpsolve_global_cardinality_closed([x, y, a], [0, 1, 3], [z, b, c])",
        "cpsolve_global_cardinality_closed([x, y], [], [])",
        "cpsolve_global_cardinality_low_up([x, y, z], [0, 1], [1, 0], [2, 1])",
        "cpsolve_global_cardinality_low_up_closed([x, y, z], [1, 1, -1], [0, 1, 1], [2, 2, 2])",
        "cpsolve_global_cardinality_low_up_closed([a, b, c], [0, 1], [1, 1], [2, 2])",
    ] {
        check_builtin(c);
    }
}

/// `int_div` by a constant of a variable too wide to tabulate (more than 4,096 values: the
/// engine's bounds propagator, as the time steps of tdtsp): within windows of `x` on both
/// sides of zero and across it, with positive and negative divisors, the solutions are
/// exactly the pairs the definition gives.
#[test]
fn division_by_a_constant_of_a_wide_variable() {
    for k in [360, -360, 7, -1] {
        for (lo, hi) in [(1070, 1450), (-1450, -1070), (-400, 400)] {
            let text = format!(
                "var -23039..23039: x :: output_var;\nvar -30000..30000: z :: output_var;\n\
                 constraint int_div(x, {k}, z);\nconstraint int_le({lo}, x);\nconstraint int_le(x, {hi});\nsolve satisfy;\n"
            );
            let mut model = load(&text).unwrap_or_else(|e| panic!("{e:?}"));
            let mut found = BTreeSet::new();
            let options = Options { all: true, verify: true, ..Options::default() };
            solve(&mut model, &options, |_, f| {
                assert!(found.insert((f.values[0][0], f.values[1][0])), "k = {k}: a solution twice");
            });
            // Truncating division, as MiniZinc's `div`.
            let expected: BTreeSet<(i64, i64)> = (lo..=hi).map(|x| (x, x / k)).collect();
            assert_eq!(found, expected, "int_div(x, {k}, z) with x in {lo}..{hi}");
        }
    }
}
