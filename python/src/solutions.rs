//! A lazy iterator over a model's solutions: the search runs on its own thread and hands
//! each solution over a small bounded channel, so it runs at most a few solutions ahead
//! of the reader and waits for it. Closing the iterator (or dropping it) requests a stop
//! and closes the channel: the search ends at its next solution or poll of the token.

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::{mpsc, Mutex};
use std::thread::JoinHandle;

use cpsolve_dsl::ast::SolveMode;
use cpsolve_engine::{Stop, StopToken, Val};
use numpy::PyArray1;
use pyo3::exceptions::{PyRuntimeError, PyStopIteration};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::outcome::{layout_dict, Ran};
use crate::running::{self, Ask, Failed, Keep};
use crate::waiting::{self, Deadline, SLICE};

/// Solutions the search may find ahead of the reader: enough to keep both threads busy.
const AHEAD: usize = 64;

enum Message {
    Layout(Vec<(String, usize)>),
    Solution(Vec<Val>),
    Done(Box<Result<Ran, Failed>>),
    Panicked(String),
}

/// `_native.Solutions(text, label, limit=None, timeout=None, nodes=None)`: iterating gives
/// `(layout, values)` pairs (`layout` only with the first: a dict of name → position,
/// else `None`); at the end, [`Solutions::summary`] holds the run as `run` gives it.
#[pyclass(module = "cpsolve._native")]
pub(crate) struct Solutions {
    rx: Option<Mutex<mpsc::Receiver<Message>>>,
    stop: StopToken,
    handle: Option<JoinHandle<()>>,
    summary: Option<Py<PyDict>>,
}

impl std::fmt::Debug for Solutions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solutions").field("running", &self.rx.is_some()).finish()
    }
}

#[pymethods]
impl Solutions {
    #[new]
    #[pyo3(signature = (text, label, path=None, limit=None, timeout=None, nodes=None))]
    fn new(
        text: String,
        label: String,
        path: Option<PathBuf>,
        limit: Option<u128>,
        timeout: Option<f64>,
        nodes: Option<u64>,
    ) -> PyResult<Solutions> {
        let ask = Ask {
            mode: Some(SolveMode::All),
            limit,
            timeout: running::parse_timeout(timeout)?,
            nodes,
            threads: 1,
            keep: Keep::Nothing,
            shared_bound: None,
        };
        let (tx, rx) = mpsc::sync_channel(AHEAD);
        let stop = StopToken::new();
        let token = stop.clone();
        let handle = std::thread::Builder::new()
            .name("cpsolve-solutions".into())
            .stack_size(64 << 20)
            .spawn(move || {
                let sender = tx.clone();
                let work = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    let _deadline = Deadline::arm(ask.timeout, &token);
                    let mut first = true;
                    running::search(&label, &text, path.as_deref(), &ask, &token, &mut |layout, record| {
                        if first {
                            first = false;
                            if sender.send(Message::Layout(layout.to_vec())).is_err() {
                                return ControlFlow::Break(());
                            }
                        }
                        match sender.send(Message::Solution(record.clone())) {
                            Ok(()) => ControlFlow::Continue(()),
                            Err(_) => ControlFlow::Break(()),
                        }
                    })
                }));
                let _ = match work {
                    Ok(done) => tx.send(Message::Done(Box::new(done))),
                    Err(panic) => tx.send(Message::Panicked(
                        panic
                            .downcast_ref::<&str>()
                            .map(|s| s.to_string())
                            .or_else(|| panic.downcast_ref::<String>().cloned())
                            .unwrap_or_default(),
                    )),
                };
            })
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start a search thread: {e}")))?;
        Ok(Solutions { rx: Some(Mutex::new(rx)), stop, handle: Some(handle), summary: None })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<(Option<PyObject>, Py<PyArray1<Val>>)> {
        loop {
            let Some(rx) = &self.rx else { return Err(PyStopIteration::new_err(())) };
            let message = py.allow_threads(|| rx.lock().unwrap_or_else(|p| p.into_inner()).recv_timeout(SLICE));
            match message {
                Ok(Message::Layout(layout)) => {
                    let layout = layout_dict(py, &layout)?.into_any().unbind();
                    match py.allow_threads(|| rx.lock().unwrap_or_else(|p| p.into_inner()).recv()) {
                        Ok(Message::Solution(values)) => {
                            return Ok((Some(layout), PyArray1::from_vec(py, values).unbind()))
                        }
                        _ => {
                            return Err(PyRuntimeError::new_err(
                                "internal error in cpsolve: a layout without a solution",
                            ))
                        }
                    }
                }
                Ok(Message::Solution(values)) => return Ok((None, PyArray1::from_vec(py, values).unbind())),
                Ok(Message::Done(done)) => {
                    self.finish(py);
                    return match *done {
                        Ok(ran) => {
                            self.summary = Some(ran.into_dict(py)?);
                            Err(PyStopIteration::new_err(()))
                        }
                        Err(failed) => Err(failed.into_err(py)),
                    };
                }
                Ok(Message::Panicked(what)) => {
                    self.finish(py);
                    return Err(waiting::internal_error(&what));
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Err(signal) = py.check_signals() {
                        self.close(py);
                        return Err(signal);
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    self.finish(py);
                    return Err(PyStopIteration::new_err(()));
                }
            }
        }
    }

    /// The run as `run` reports it, once the iteration has ended (else `None`).
    #[getter]
    fn summary(&self, py: Python<'_>) -> Option<Py<PyDict>> {
        self.summary.as_ref().map(|s| s.clone_ref(py))
    }

    /// Stops the search and waits for its thread to end.
    fn close(&mut self, py: Python<'_>) {
        self.stop.request(Stop::Cancelled);
        self.rx = None;
        self.finish(py);
    }
}

impl Solutions {
    fn finish(&mut self, py: Python<'_>) {
        self.rx = None;
        if let Some(handle) = self.handle.take() {
            let _ = py.allow_threads(|| handle.join());
        }
    }
}

impl Drop for Solutions {
    /// Dropped unfinished: the search is told to stop and its thread ends on its own.
    fn drop(&mut self) {
        self.stop.request(Stop::Cancelled);
    }
}
