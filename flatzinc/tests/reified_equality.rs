//! `int_eq_reif(x, y, b)`: once `b` is true, `x` and `y` keep the same values, not only the
//! same bounds (Gecode's default for a reified equality; a search that picks the smallest
//! domain sees the difference).

use cpsolve_flatzinc::{load, Term, Val, VarId};

fn var(model: &cpsolve_flatzinc::Model, name: &str) -> VarId {
    match model.fzn_vars.iter().find(|(n, _)| n == name).map(|(_, t)| *t) {
        Some(Term::Var(x)) => x,
        other => panic!("{name}: {other:?}"),
    }
}

#[test]
fn a_true_reified_equality_gives_both_sides_the_same_values() {
    let text = "var {0, 2, 4}: x :: output_var;\nvar 0..4: y :: output_var;\nvar bool: b :: output_var;\n\
                constraint int_eq_reif(x, y, b);\nsolve satisfy;\n";
    let mut model = load(text).expect("a valid model");
    let (x, y, b) = (var(&model, "x"), var(&model, "y"), var(&model, "b"));
    assert!(model.solver.propagate());
    assert!(!model.solver.is_fixed(b));
    model.solver.assign(b, 1);
    assert!(model.solver.propagate());
    assert_eq!(model.solver.values(y).collect::<Vec<Val>>(), vec![0, 2, 4]);
    model.solver.remove(y, 2);
    assert!(model.solver.propagate());
    assert_eq!(model.solver.values(x).collect::<Vec<Val>>(), vec![0, 4]);
}

#[test]
fn disjoint_sides_make_a_reified_equality_false() {
    let text = "var {0, 2, 4}: x :: output_var;\nvar {1, 3}: y :: output_var;\nvar bool: b :: output_var;\n\
                constraint int_eq_reif(x, y, b);\nsolve satisfy;\n";
    let mut model = load(text).expect("a valid model");
    let b = var(&model, "b");
    assert!(model.solver.propagate());
    assert!(model.solver.is_fixed(b) && model.solver.min(b) == 0);
}
