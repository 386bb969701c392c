//! A limit that strikes while a model is built stops the building with the "stopped by a
//! limit" error, which the runner turns into the limit's own message (exit 3). It must never
//! be a panic: `cpsolve --timeout 0 --count -e 'queens n = 40'` once panicked in `new_var`.
//!
//! The interrupt is process-wide, so this file holds one test (its own process).

use cpsolve_engine::{interrupt, Stop};

#[test]
fn every_model_kind_stops_cleanly_when_the_interrupt_is_already_raised() {
    interrupt::raise(Stop::Time);
    for source in [
        "queens n = 40\nsolve count",
        "cryptarithm SEND + MORE = MONEY",
        "nothreeinline n = 10",
        "var x[1..5] in 1..5\nalldifferent(x)\nsolve first",
    ] {
        let file = cpsolve_dsl::parse(source).expect("a valid model");
        let outcome = std::panic::catch_unwind(|| cpsolve_models::compile(&file));
        let errors = match outcome {
            Ok(Err(errors)) => errors,
            Ok(Ok(_)) => panic!("{source:?} compiled although the interrupt was raised"),
            Err(_) => panic!("{source:?} panicked while compiling under a raised interrupt"),
        };
        assert!(errors[0].message.contains("stopped by a limit"), "{source:?}: {}", errors[0].message);
    }
    interrupt::lower();
}
