//! `cpsolve serve`'s page in a real browser: Debian's headless `chromium`, driven through
//! `chromedriver` (WebDriver over HTTP). The page opened at `/#puz=<model>&explain=1`
//! explains a Sudoku, draws its board as SVG and lists its steps; a click on a step shows
//! the board at that step, with the cell it decides and the cells it uses highlighted.
//!
//! Without `chromium` and `chromedriver` (`.ci/run` installs them with apt) the test says
//! so on standard error and passes: nothing else in the workspace needs a browser.
//! `CPSOLVE_SCREENSHOT=FILE` saves a screenshot of the page there (the one in docs/serve.png
//! comes from it).

mod serving;

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::{json, Value};
use serving::{sudoku, Server};

/// A chromedriver on a free port, ended when dropped.
struct Driver {
    child: Child,
    base: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Driver {
    /// Starts chromedriver, or says why it cannot.
    fn start() -> Result<Driver, String> {
        for tool in ["chromium", "chromedriver"] {
            let found = Command::new(tool).arg("--version").output().is_ok_and(|o| o.status.success());
            if !found {
                return Err(format!("`{tool}` is not installed (apt-get install chromium chromium-driver)"));
            }
        }
        let port = TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map_err(|e| e.to_string())?.port();
        let child = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("chromedriver does not start: {e}"))?;
        let driver = Driver { child, base: format!("http://127.0.0.1:{port}") };
        let start = Instant::now();
        while minreq::get(format!("{}/status", driver.base)).with_timeout(5).send().is_err() {
            if start.elapsed() > Duration::from_secs(30) {
                return Err("chromedriver did not answer within 30 s".to_string());
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        Ok(driver)
    }

    /// A WebDriver command: its `value`.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let url = format!("{}{path}", self.base);
        let request = match method {
            "GET" => minreq::get(url),
            "DELETE" => minreq::delete(url),
            _ => minreq::post(url).with_header("Content-Type", "application/json"),
        };
        let request = match body {
            Some(body) => request.with_body(body.to_string()),
            None => request,
        };
        let response = request.with_timeout(120).send().expect("chromedriver answers");
        let answer: Value = serde_json::from_slice(response.as_bytes()).expect("WebDriver answers JSON");
        assert!(response.status_code == 200, "{method} {path}: {answer}");
        answer["value"].clone()
    }
}

/// A WebDriver session (one browser window), deleted (the browser closed) when dropped.
struct Session<'a> {
    driver: &'a Driver,
    id: String,
}

impl Drop for Session<'_> {
    fn drop(&mut self) {
        let _ = minreq::delete(format!("{}/session/{}", self.driver.base, self.id)).with_timeout(30).send();
    }
}

impl Session<'_> {
    fn open(driver: &Driver) -> Session<'_> {
        let capabilities = json!({ "capabilities": { "alwaysMatch": {
            "goog:chromeOptions": { "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000"] }
        }}});
        let value = driver.call("POST", "/session", Some(capabilities));
        Session { driver, id: value["sessionId"].as_str().expect("a session").to_string() }
    }

    fn command(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.driver.call(method, &format!("/session/{}{path}", self.id), body)
    }

    /// Runs `script` in the page (a function body: `return ...`).
    fn run(&self, script: &str) -> Value {
        self.command("POST", "/execute/sync", Some(json!({ "script": script, "args": [] })))
    }

    /// Waits until `script` returns true.
    fn wait_for(&self, script: &str, what: &str) {
        let start = Instant::now();
        while self.run(script) != json!(true) {
            assert!(start.elapsed() < Duration::from_secs(60), "the page never showed {what}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn click(&self, css: &str) {
        let element = self.command("POST", "/element", Some(json!({ "using": "css selector", "value": css })));
        let id = element.as_object().and_then(|o| o.values().next()).and_then(Value::as_str).expect("an element id");
        self.command("POST", &format!("/element/{id}/click"), Some(json!({})));
    }
}

/// Percent-encodes all but the unreserved characters, as a URL's fragment carries a model.
fn url_encoded(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[test]
fn the_page_explains_a_sudoku_and_a_click_rewinds_the_board() {
    let driver = match Driver::start() {
        Ok(driver) => driver,
        Err(why) => {
            eprintln!("SKIPPED: the browser test of `cpsolve serve` did not run: {why}");
            return;
        }
    };
    let server = Server::start(&[]);
    let session = Session::open(&driver);
    let model = sudoku("01-wikipedia.puz");
    let url = format!("{}/#puz={}&explain=1", server.base, url_encoded(&model));
    session.command("POST", "/url", Some(json!({ "url": url })));
    session.wait_for("return document.querySelectorAll('[data-step]').length >= 10", "the steps");
    assert_eq!(session.run("return document.querySelectorAll('#steps [data-step]').length"), json!(51));
    assert_eq!(session.run("return document.querySelectorAll('#board svg rect.cell').length"), json!(81));
    // Singles are named as players name them: step 1 fixes x[5,5] from its row and its
    // column, step 5 x[3,5] as the one place for 4 in column 5.
    let technique =
        |n: u32| session.run(&format!("return document.querySelector('[data-step=\"{n}\"] .technique').textContent"));
    assert_eq!(technique(1), json!("Naked single"));
    assert_eq!(technique(5), json!("Full house"), "column 5's other eight cells are known by then");
    // At step 0 only the 30 givens are shown.
    let shown = "return [...document.querySelectorAll('#board text.value')]\
                 .filter(t => t.style.visibility !== 'hidden').length";
    assert_eq!(session.run(shown), json!(30));
    session.click("#steps [data-step='5']");
    assert_eq!(session.run(shown), json!(35), "the board after five steps");
    assert_eq!(session.run("return document.querySelector('#steps li.current').dataset.step"), json!("5"));
    let decided = session.run("return document.querySelectorAll('#board rect.decided').length");
    assert_eq!(decided, json!(1), "one decided cell");
    let used = session.run("return document.querySelectorAll('#board rect.used').length");
    assert!(used.as_u64().is_some_and(|n| n >= 8), "the step's houses are highlighted: {used}");
    // The decided cell is the step's conclusion: its value shows, in the solution's place.
    let step = session.run("const s = document.querySelector('#steps li.current').textContent; return s");
    assert!(step.as_str().is_some_and(|s| s.contains(" = ")), "{step}");
    // The hint tells the next step's technique and area first, then shows it.
    session.click("#hint");
    let hint = session.run("return document.getElementById('hint-text').textContent");
    assert!(hint.as_str().is_some_and(|h| h.starts_with("Hint: ")), "{hint}");
    assert_eq!(session.run("return document.querySelector('#steps li.current').dataset.step"), json!("5"));
    session.click("#hint");
    assert_eq!(session.run("return document.querySelector('#steps li.current').dataset.step"), json!("6"));
    // Step 6 of Project Euler's grid 02 places 6 in x[1,9], the one cell of row 1 that
    // column 8 and box 1 leave it.
    let url = format!("{}/?again#puz={}&explain=1", server.base, url_encoded(&sudoku("03-euler-02.puz")));
    session.command("POST", "/url", Some(json!({ "url": url })));
    session.wait_for("return document.querySelectorAll('[data-step]').length >= 10", "the steps of another Sudoku");
    assert_eq!(technique(6), json!("Hidden single"));
    // An impossible Minesweeper position, in the shape of every explanation: the cells
    // proved on the way, then the numbers no layout fits, and "No solution."
    let position =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/unsat/minesweeper-impossible.puz"))
            .expect("the position");
    let url = format!("{}/?mines#puz={}&explain=1", server.base, url_encoded(&position));
    session.command("POST", "/url", Some(json!({ "url": url })));
    session.wait_for("return document.querySelectorAll('[data-step]').length === 4", "the steps of a position");
    assert_eq!(technique(4), json!("No layout"));
    assert_eq!(session.run("return document.getElementById('ending').textContent"), json!("No solution."));
    // (No board: as for every kind, a model without a solution has no picture.)
    session.click("#steps [data-step='3']");
    let step = session.run("return document.querySelector('#steps li.current').textContent");
    assert!(step.as_str().is_some_and(|s| s.contains("(3,3) is safe")), "{step}");
    if let Ok(path) = std::env::var("CPSOLVE_SCREENSHOT") {
        session.command(
            "POST",
            "/url",
            Some(json!({ "url": format!("{}/#puz={}&explain=1", server.base, url_encoded(&model)) })),
        );
        session.wait_for("return document.querySelectorAll('[data-step]').length >= 10", "the steps");
        session.click("#steps [data-step='5']");
        let png = session.command("GET", "/screenshot", None);
        let png = base64::engine::general_purpose::STANDARD.decode(png.as_str().expect("base64")).expect("a PNG");
        std::fs::write(&path, png).expect("the screenshot is written");
    }
}
