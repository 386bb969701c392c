//! What a run hands back to Python: the status and figures of the report, the solutions'
//! values, and the command line's JSON object of the run.

use cpsolve_engine::{Stats, Stop, Val};
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// A finished run, made without the GIL and turned into a dict with it.
#[derive(Debug, Default)]
pub(crate) struct Ran {
    /// `"solved"`, `"unsatisfiable"`, `"limit"` or `"no better"`, as in the JSON output.
    pub(crate) status: &'static str,
    pub(crate) count: u128,
    pub(crate) objective: Option<Val>,
    /// With a shared bound: its value when the run ended, when better than the run's own
    /// best; status `"no better"` says the run found nothing better than it.
    pub(crate) bound: Option<Val>,
    pub(crate) optimising: bool,
    pub(crate) stopped: Option<Stop>,
    pub(crate) stats: Stats,
    /// Where each shown variable's value is in a record, by its name in the JSON output
    /// (`x`, `q[3]`, `grid[2,5]`).
    pub(crate) layout: Vec<(String, usize)>,
    /// The records kept (the last, or all of them), in the order found.
    pub(crate) records: Vec<Vec<Val>>,
    /// The command line's JSON object of the run, one line.
    pub(crate) json: String,
}

/// The JSON name of a stop, as `"stopped"` gives it.
pub(crate) fn stop_name(stop: Stop) -> &'static str {
    match stop {
        Stop::Time => "time",
        Stop::Memory => "memory",
        Stop::Solutions => "solutions",
        Stop::Nodes => "nodes",
        Stop::Cancelled | Stop::Callback => "interrupted",
    }
}

pub(crate) fn stats_dict<'py>(py: Python<'py>, stats: &Stats) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("nodes", stats.nodes)?;
    dict.set_item("failures", stats.failures)?;
    dict.set_item("propagations", stats.propagations)?;
    dict.set_item("solutions", stats.solutions)?;
    dict.set_item("max_depth", stats.max_depth)?;
    dict.set_item("time", stats.time.as_secs_f64())?;
    Ok(dict)
}

impl Ran {
    pub(crate) fn into_dict(self, py: Python<'_>) -> PyResult<Py<PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("status", self.status)?;
        dict.set_item("count", self.count)?;
        dict.set_item("objective", self.objective)?;
        dict.set_item("bound", self.bound)?;
        dict.set_item("optimising", self.optimising)?;
        dict.set_item("stopped", self.stopped.map(stop_name))?;
        dict.set_item("stats", stats_dict(py, &self.stats)?)?;
        dict.set_item("layout", layout_dict(py, &self.layout)?)?;
        let records: Vec<Bound<'_, PyArray1<Val>>> =
            self.records.into_iter().map(|record| PyArray1::from_vec(py, record)).collect();
        dict.set_item("records", records)?;
        dict.set_item("json", self.json)?;
        Ok(dict.unbind())
    }
}

pub(crate) fn layout_dict<'py>(py: Python<'py>, layout: &[(String, usize)]) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for (name, at) in layout {
        dict.set_item(name, at)?;
    }
    Ok(dict)
}
