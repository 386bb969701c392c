//! `cpsolve serve`: a local web page and a JSON API over the command line's own answers.
//!
//! The page (`assets/`, embedded in the binary) is a model editor with Solve and Explain,
//! the board drawn by the pictures code, the explanation's steps to click through and a
//! hint button. The API answers with exactly what the command line prints:
//!
//! - `POST /api/solve` — `cpsolve --format json -`;
//! - `POST /api/explain` — `cpsolve explain --format json -`;
//! - `POST /api/picture` — `cpsolve --format svg -` (the board the page draws);
//!
//! the body is the model's text, `?timeout=S` its time limit (at most `--max-timeout`).
//!
//! Isolation: every request is run by a child process of this same binary (`child`) with
//! its own `--timeout` and `--memory`, so a request that runs out of either is stopped
//! alone, and its memory is given back whole when it ends (the memory limit of a process
//! counts every thread, so threads of one process could not be limited one by one). A
//! fixed pool of workers takes requests as they come: a hopeless request holds one worker
//! for at most its time limit, while the others keep answering. A posted model reads no
//! file of this machine: the child refuses `include`.
//!
//! HTTP statuses: 200 for an answer (solved, no solution, or a limit: the JSON's `status`
//! says which), 400 for a model with errors (the located errors, as the command line's
//! JSON has them) or a body that is not UTF-8 (located at the first bad byte), 413 for a
//! body over `--max-body`, 404 and 405 for other paths and methods.

mod body;
mod child;
mod routes;

use std::io::{self, Write};
use std::net::IpAddr;
use std::sync::Arc;
use std::thread;

use clap::Args;

/// The arguments of `cpsolve serve`.
#[derive(Debug, Args)]
pub(crate) struct ServeArgs {
    /// The port to listen on (0: any free port; the address is printed on the first line).
    #[arg(long, default_value_t = 8080)]
    pub(crate) port: u16,
    /// The address to listen on. The default answers this machine only; `0.0.0.0` would
    /// answer anyone who can reach it.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    pub(crate) bind: IpAddr,
    /// Requests run at once; more wait their turn.
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub(crate) workers: u32,
    /// The longest time limit a request may ask for, and the limit of one that asks none.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    pub(crate) max_timeout: f64,
    /// The memory limit of each request, in megabytes.
    #[arg(long, value_name = "MB", default_value_t = 512, value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    pub(crate) request_memory: u64,
    /// The largest model accepted, in bytes (larger ones get 413).
    #[arg(long, value_name = "BYTES", default_value_t = 4 << 20)]
    pub(crate) max_body: usize,
}

/// What every worker needs to answer a request.
#[derive(Debug, Clone)]
pub(crate) struct Limits {
    pub(crate) max_timeout: f64,
    pub(crate) request_memory: u64,
    pub(crate) max_body: usize,
}

/// Runs `cpsolve serve` until the process is ended.
pub(crate) fn serve(args: &ServeArgs) -> io::Result<u8> {
    if !(args.max_timeout.is_finite() && args.max_timeout > 0.0) {
        writeln!(io::stderr(), "error: --max-timeout must be a positive number of seconds")?;
        return Ok(crate::solve::BAD_INPUT);
    }
    let server = match tiny_http::Server::http((args.bind, args.port)) {
        Ok(server) => Arc::new(server),
        Err(e) => {
            writeln!(io::stderr(), "error: cannot listen on {}:{}: {e}", args.bind, args.port)?;
            return Ok(crate::solve::BAD_INPUT);
        }
    };
    let address = server.server_addr().to_ip().map_or_else(|| "?".to_string(), |a| a.to_string());
    // The first line is the address, so that a script (or a test) started with --port 0
    // learns which port it got.
    let mut out = io::stdout().lock();
    writeln!(out, "cpsolve serve: listening on http://{address}/")?;
    out.flush()?;
    drop(out);
    let limits = Limits { max_timeout: args.max_timeout, request_memory: args.request_memory, max_body: args.max_body };
    let workers: Vec<_> = (0..args.workers)
        .map(|_| {
            let server = Arc::clone(&server);
            let limits = limits.clone();
            thread::spawn(move || {
                while let Ok(request) = server.recv() {
                    // A client that went away is no error of the server's.
                    let _ = routes::answer(request, &limits);
                }
            })
        })
        .collect();
    for worker in workers {
        let _ = worker.join();
    }
    Ok(crate::solve::SOLVED)
}
