//! A `cpsolve serve` started for a test: on a free loopback port, ended when dropped.

#![allow(dead_code, reason = "each test file uses a different part")]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// A running server.
pub(crate) struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`, without a trailing slash.
    pub(crate) base: String,
}

impl Server {
    /// Starts `cpsolve serve --port 0` with `args`, and reads the address it got.
    pub(crate) fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cpsolve"))
            .args(["serve", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("cpsolve serve starts");
        let mut first = String::new();
        BufReader::new(child.stdout.take().expect("stdout is piped")).read_line(&mut first).expect("a first line");
        let base = first
            .trim()
            .strip_prefix("cpsolve serve: listening on ")
            .unwrap_or_else(|| panic!("the first line names the address: {first:?}"))
            .trim_end_matches('/')
            .to_string();
        assert!(base.starts_with("http://127.0.0.1:"), "loopback by default: {base}");
        Server { child, base }
    }

    /// POSTs `body` to `path` (with its query): the status and the body of the answer.
    pub(crate) fn post(&self, path: &str, body: impl Into<Vec<u8>>) -> (i32, String) {
        let response =
            minreq::post(format!("{}{path}", self.base)).with_body(body).with_timeout(120).send().expect("an answer");
        (response.status_code, String::from_utf8_lossy(response.as_bytes()).into_owned())
    }

    /// Like [`Server::post`], with the answer read as JSON.
    pub(crate) fn post_json(&self, path: &str, body: impl Into<Vec<u8>>) -> (i32, serde_json::Value) {
        let (status, text) = self.post(path, body);
        let json = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: not JSON ({e}): {text}"));
        (status, json)
    }

    /// GETs `path`: the status and the body.
    pub(crate) fn get(&self, path: &str) -> (i32, String) {
        let response = minreq::get(format!("{}{path}", self.base)).with_timeout(60).send().expect("an answer");
        (response.status_code, String::from_utf8_lossy(response.as_bytes()).into_owned())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A Sudoku of bench/explain/sudoku (its file name there).
pub(crate) fn sudoku(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("bench/explain/sudoku").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}
