//! Free search decides first the 0/1 variables an objective counts, each towards the value
//! that improves it; the optimum must not change, whichever way the count is written.

use cpsolve_flatzinc::{load, solve, Options, SearchChoice, Status};

/// Three Booleans, each counted through `bool2int`, under two clauses; the count defined by
/// `int_lin_eq` with the given coefficients (the count's last) and the given goal.
fn model(coefs: &str, goal: &str) -> String {
    format!(
        "var bool: a :: output_var;\nvar bool: b :: output_var;\nvar bool: c :: output_var;\n\
         var 0..1: ia;\nvar 0..1: ib;\nvar 0..1: ic;\nvar -3..3: cost :: output_var :: is_defined_var;\n\
         constraint bool2int(a, ia);\nconstraint bool2int(b, ib);\nconstraint bool2int(c, ic);\n\
         constraint bool_clause([a, b], []);\nconstraint bool_clause([b, c], []);\nconstraint bool_clause([a, c], []);\n\
         constraint int_lin_eq([{coefs}], [ia, ib, ic, cost], 0) :: defines_var(cost);\n\
         solve {goal} cost;\n"
    )
}

/// The optimum by enumeration: `cost = −Σ aᵢ·xᵢ / a_cost` over the assignments of a, b, c
/// that the three clauses (at least two true) allow.
fn brute_force(coefs: [i64; 4], minimize: bool) -> i64 {
    let costs = (0..8)
        .map(|m: i64| [m & 1, (m >> 1) & 1, (m >> 2) & 1])
        .filter(|x| x.iter().sum::<i64>() >= 2)
        .map(|x| -(0..3).map(|i| coefs[i] * x[i]).sum::<i64>() / coefs[3]);
    if minimize { costs.min() } else { costs.max() }.expect("some assignment")
}

fn optimum(text: &str) -> (bool, Option<i64>) {
    let mut model = load(text).expect("a valid model");
    let count_first = model.count_first;
    let options = Options { search: SearchChoice::Free, verify: true, ..Options::default() };
    let result = solve(&mut model, &options, |_, _| {});
    assert_eq!(result.status, Status::Complete);
    (count_first, result.objective)
}

#[test]
fn a_count_is_decided_first_and_its_optimum_kept() {
    // Two of the three clauses' variables must be true at least: the fewest true is 2.
    assert_eq!(optimum(&model("1, 1, 1, -1", "minimize")), (true, Some(2)));
    assert_eq!(optimum(&model("1, 1, 1, -1", "maximize")), (true, Some(3)));
    // cost = −(a + b + c): minimising it wants every variable true.
    assert_eq!(optimum(&model("1, 1, 1, 1", "minimize")), (true, Some(-3)));
    assert_eq!(optimum(&model("1, 1, 1, 1", "maximize")), (true, Some(-2)));
    // Terms pulling both ways are not a count: the search is as before.
    assert_eq!(optimum(&model("1, -1, 1, -1", "minimize")), (false, Some(0)));
    // Every optimum above, by enumeration.
    for (coefs, minimize, expected) in [
        ([1, 1, 1, -1], true, 2),
        ([1, 1, 1, -1], false, 3),
        ([1, 1, 1, 1], true, -3),
        ([1, 1, 1, 1], false, -2),
        ([1, -1, 1, -1], true, 0),
    ] {
        assert_eq!(brute_force(coefs, minimize), expected, "{coefs:?}");
    }
}

/// Where cpsolve's own search decides a count first, the model's annotation still goes first
/// as a probe (with a smaller budget), and a tree this small finishes within it: the optimum
/// shown is the one the annotation reaches (`a` true, tried first by `indomain_max`), not
/// the own search's (`a` false, the count's improving value), and it is brute force's.
#[test]
fn a_small_annotated_tree_is_kept_where_a_count_goes_first() {
    let annotated = "bool_search([a, b, c], input_order, indomain_max, complete)";
    let mut model = load(&model("1, 1, 1, -1", &format!(":: {annotated} minimize"))).expect("a valid model");
    assert!(model.count_first);
    let mut last = None;
    let options = Options { search: SearchChoice::Auto, verify: true, ..Options::default() };
    let result = solve(&mut model, &options, |_, found| last = Some(found.values.clone()));
    assert_eq!(result.status, Status::Complete);
    assert_eq!(result.objective, Some(brute_force([1, 1, 1, -1], true)));
    let a = last.expect("a solution")[0].clone();
    assert_eq!(a, [1], "the annotation's optimum, a = true");
}
