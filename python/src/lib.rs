//! The native half of the `cpsolve` Python package: the workspace's own reader, compiler and
//! runner, called in-process (no `cpsolve` binary is run).
//!
//! The Python half (`python/cpsolve/`) builds a model as `.puz` text from its expression
//! objects; this module parses it with the dsl crate, compiles it with the models crate and
//! searches it with the runner, so a model from Python means exactly what the same `.puz` file
//! means on the command line, and its JSON is the command line's (docs/json.md).
//!
//! Every search runs on a thread of its own while the calling thread waits without the GIL
//! (`waiting.rs`): other Python threads run meanwhile, Ctrl-C is seen within 10 ms, and a run's
//! limits are its own (each run has its own stop token and clock).

mod bound;
mod errors;
mod explaining;
mod files;
mod flatzinc;
mod outcome;
mod parsing;
mod running;
mod solutions;
mod waiting;

use pyo3::prelude::*;

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("ModelError", py.get_type::<errors::ModelError>())?;
    m.add("Stopped", py.get_type::<errors::Stopped>())?;
    m.add_function(wrap_pyfunction!(running::run_model, m)?)?;
    m.add_function(wrap_pyfunction!(explaining::explain_model, m)?)?;
    m.add_function(wrap_pyfunction!(files::solve_file, m)?)?;
    m.add_class::<solutions::Solutions>()?;
    m.add_class::<bound::SharedBound>()?;
    Ok(())
}
