//! A limit that strikes while a model is built stops the building with the "stopped by a
//! limit" error, which the runner turns into the limit's own message (exit 3). It must never
//! be a panic: `cpsolve --timeout 0 --count -e 'queens n = 40'` once panicked in `new_var`.
//! The stop is the run's own: the same model compiled with another token compiles.

use cpsolve_engine::{Stop, StopToken};

const SOURCES: [&str; 4] = [
    "queens n = 40\nsolve count",
    "cryptarithm SEND + MORE = MONEY",
    "nothreeinline n = 10",
    "var x[1..5] in 1..5\nalldifferent(x)\nsolve first",
];

#[test]
fn every_model_kind_stops_cleanly_when_its_run_was_asked_to_stop() {
    let stopped = StopToken::new();
    stopped.request(Stop::Time);
    for source in SOURCES {
        let file = cpsolve_dsl::parse(source).expect("a valid model");
        let outcome = std::panic::catch_unwind(|| cpsolve_models::compile_with_stop(&file, &stopped));
        let errors = match outcome {
            Ok(Err(errors)) => errors,
            Ok(Ok(_)) => panic!("{source:?} compiled although its run was asked to stop"),
            Err(_) => panic!("{source:?} panicked while compiling under a requested stop"),
        };
        assert!(errors[0].message.contains("stopped by a limit"), "{source:?}: {}", errors[0].message);
        assert!(
            cpsolve_models::compile_with_stop(&file, &StopToken::new()).is_ok(),
            "{source:?}: another run's stop stopped this one"
        );
    }
}

#[test]
fn the_compiled_problem_searches_under_its_run_token() {
    let stop = StopToken::new();
    let file = cpsolve_dsl::parse("var x[1..30] in 1..9\nsolve count").expect("a valid model");
    let mut problem = cpsolve_models::compile_with_stop(&file, &stop).expect("compiles");
    stop.request(Stop::Memory);
    let outcome = problem.solver.search(&problem.search.clone(), |_| std::ops::ControlFlow::Continue(()));
    assert_eq!(outcome.stopped, Some(Stop::Memory));
}
