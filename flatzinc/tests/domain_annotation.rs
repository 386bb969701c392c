//! `:: domain` on a linear equation asks for domain consistency (MiniZinc writes it on the
//! equations that define an array index, among others; Gecode honours it). Without it a
//! linear equation is propagated by bounds.

use cpsolve_flatzinc::{load, Term, Val};

/// The values left to `z` at the root of `z = x + 5·y`, x in 0..1, y in 0..4.
fn root_values_of_z(annotation: &str) -> Vec<Val> {
    let text = format!(
        "var 0..1: x :: output_var;\nvar 0..4: y :: output_var;\nvar 0..21: z :: output_var;\n\
         constraint int_lin_eq([1, 5, -1], [x, y, z], 0){annotation};\nsolve satisfy;\n"
    );
    let mut model = load(&text).expect("a valid model");
    assert!(model.solver.propagate());
    let z = model.fzn_vars.iter().find(|(name, _)| name == "z").map(|(_, t)| *t).expect("z");
    match z {
        Term::Var(z) => model.solver.values(z).collect(),
        Term::Const(v) => vec![v],
    }
}

#[test]
fn a_domain_annotated_linear_equation_keeps_only_the_sums_that_occur() {
    assert_eq!(root_values_of_z(" :: domain"), vec![0, 1, 5, 6, 10, 11, 15, 16, 20, 21]);
}

#[test]
fn without_the_annotation_the_equation_goes_by_bounds() {
    assert_eq!(root_values_of_z(""), (0..=21).collect::<Vec<Val>>());
}
