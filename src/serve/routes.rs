//! Which answer each request gets: the embedded page, or a model run by a child.

use std::io;

use serde_json::{json, Value};
use tiny_http::{Header, Method, Request, Response};

use super::body::{self, Refused};
use super::child::{self, Ended, Task};
use super::Limits;

const INDEX: &str = include_str!("assets/index.html");
const SCRIPT: &str = include_str!("assets/page.js");
const STYLE: &str = include_str!("assets/page.css");

/// The command line's exit status for bad input (docs/cli.md).
const BAD_INPUT: u8 = crate::solve::BAD_INPUT;

/// Answers one request.
pub(crate) fn answer(mut request: Request, limits: &Limits) -> io::Result<()> {
    let url = request.url().to_string();
    let (path, query) = url.split_once('?').unwrap_or((&url, ""));
    let task = match path {
        "/api/solve" => Task::Solve,
        "/api/explain" => Task::Explain,
        "/api/picture" => Task::Picture,
        _ => {
            let response = match (request.method(), path) {
                (Method::Get | Method::Head, "/" | "/index.html") => asset(INDEX, "text/html; charset=utf-8"),
                (Method::Get | Method::Head, "/page.js") => asset(SCRIPT, "text/javascript; charset=utf-8"),
                (Method::Get | Method::Head, "/page.css") => asset(STYLE, "text/css; charset=utf-8"),
                (Method::Get | Method::Head, _) => error(404, &format!("no page at `{path}`")),
                _ => error(405, &format!("`{path}` is read with GET")),
            };
            return request.respond(response);
        }
    };
    if *request.method() != Method::Post {
        return request.respond(error(405, &format!("`{path}` takes the model as the body of a POST")));
    }
    let seconds = match timeout(query, limits.max_timeout) {
        Ok(seconds) => seconds,
        Err(message) => return request.respond(error(400, &message)),
    };
    let declared = request.body_length();
    let model = match body::read(request.as_reader(), declared, limits.max_body) {
        Ok(model) => model,
        Err(Refused::TooLarge(limit)) => {
            return request.respond(error(413, &format!("the model is over the limit of {limit} bytes")))
        }
        Err(Refused::NotUtf8 { line, column, byte }) => {
            let message = format!("the model is not UTF-8 text: byte 0x{byte:02x}");
            return request.respond(located_error(400, &message, line, column));
        }
        Err(Refused::Broken) => return Ok(()),
    };
    let response = match child::run(task, &model, seconds, limits.request_memory) {
        Ok(Ended::Exited { code, stdout, stderr }) => from_child(task, code, stdout, &stderr),
        Ok(Ended::Killed) => json_response(200, &json!({ "file": "<stdin>", "status": "limit", "stopped": "time" })),
        Ok(Ended::Crashed) => error(500, "the run of this model ended abnormally"),
        Err(e) => error(500, &format!("cannot run the model: {e}")),
    };
    request.respond(response)
}

/// The answer a child printed, with the HTTP status its exit status stands for.
fn from_child(task: Task, code: u8, stdout: String, stderr: &str) -> Response<io::Cursor<Vec<u8>>> {
    let first_line = || stderr.lines().find(|line| !line.trim().is_empty()).unwrap_or("no answer").to_string();
    match task {
        Task::Picture if code == 0 => with_type(Response::from_string(stdout), "image/svg+xml"),
        Task::Picture => {
            let status = if code == BAD_INPUT { 400 } else { 422 };
            error(status, first_line().trim_start_matches("error: "))
        }
        // One JSON object per model, errors included: the child's own.
        _ if stdout.trim().is_empty() => error(500, &first_line()),
        _ => {
            let status = if code == BAD_INPUT { 400 } else { 200 };
            with_type(Response::from_string(stdout).with_status_code(status), "application/json")
        }
    }
}

/// `timeout=S` from the query, at most `max`; `max` when it is not given.
fn timeout(query: &str, max: f64) -> Result<f64, String> {
    let mut seconds = max;
    for pair in query.split('&').filter(|pair| !pair.is_empty()) {
        match pair.split_once('=') {
            Some(("timeout", value)) => match value.parse::<f64>() {
                Ok(s) if s.is_finite() && s >= 0.0 => seconds = s.min(max),
                _ => return Err(format!("`timeout={value}` is not a number of seconds")),
            },
            _ => return Err(format!("unknown parameter `{pair}` (the one known is `timeout=SECONDS`)")),
        }
    }
    Ok(seconds)
}

fn asset(text: &'static str, content_type: &str) -> Response<io::Cursor<Vec<u8>>> {
    with_type(Response::from_data(text.as_bytes().to_vec()), content_type)
}

/// An error as the command line's JSON has an error it cannot place: line and column 0.
fn error(status: u16, message: &str) -> Response<io::Cursor<Vec<u8>>> {
    located_error(status, message, 0, 0)
}

fn located_error(status: u16, message: &str, line: usize, column: usize) -> Response<io::Cursor<Vec<u8>>> {
    let object = json!({
        "file": "<stdin>",
        "status": "error",
        "errors": [{ "message": message, "line": line, "column": column }],
    });
    json_response(status, &object)
}

fn json_response(status: u16, object: &Value) -> Response<io::Cursor<Vec<u8>>> {
    with_type(Response::from_string(format!("{object}\n")).with_status_code(status), "application/json")
}

fn with_type(response: Response<io::Cursor<Vec<u8>>>, content_type: &str) -> Response<io::Cursor<Vec<u8>>> {
    match Header::from_bytes(&b"Content-Type"[..], content_type.as_bytes()) {
        Ok(header) => response.with_header(header),
        Err(()) => response,
    }
}

#[cfg(test)]
mod tests {
    use super::timeout;

    #[test]
    fn the_timeout_is_capped_and_checked() {
        assert_eq!(timeout("", 10.0), Ok(10.0));
        assert_eq!(timeout("timeout=2.5", 10.0), Ok(2.5));
        assert_eq!(timeout("timeout=100", 10.0), Ok(10.0));
        assert!(timeout("timeout=-1", 10.0).is_err());
        assert!(timeout("timeout=abc", 10.0).is_err());
        assert!(timeout("limit=3", 10.0).is_err());
    }
}
