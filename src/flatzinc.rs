//! `cpsolve model.fzn` and `cpsolve model.mzn [data.dzn ...]`: MiniZinc models from
//! cpsolve's own command line.
//!
//! A `.mzn` model is flattened by the installed `minizinc` against cpsolve's solver library
//! (`mznlib/`, built into this binary and written to a temporary directory for the run),
//! then solved here like a `.fzn` one. In text mode the solutions go through `minizinc
//! --ozn-file` so that they print as the model's output item says; `--format json` prints
//! the output variables under their names in the model.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use cpsolve_flatzinc::{format_solution, status_line, Found, Goal, Kind, Model, Options, RunResult, Status, Stop};
use serde_json::{json, Map, Value};

use cpsolve_engine::StopToken;
use cpsolve_models::report;

use crate::cli::{Format, SolveArgs};
use crate::limits;

const SOLVED: u8 = 0;
const UNSATISFIABLE: u8 = 1;
const BAD_INPUT: u8 = 2;
const LIMIT: u8 = 3;

/// The solver library, as shipped in `mznlib/`.
const MZNLIB: &[(&str, &str)] = &[
    ("redefinitions.mzn", include_str!("../mznlib/redefinitions.mzn")),
    ("redefinitions-2.0.mzn", include_str!("../mznlib/redefinitions-2.0.mzn")),
    ("fzn_all_different_int.mzn", include_str!("../mznlib/fzn_all_different_int.mzn")),
    ("fzn_table_int.mzn", include_str!("../mznlib/fzn_table_int.mzn")),
    ("fzn_table_bool.mzn", include_str!("../mznlib/fzn_table_bool.mzn")),
    ("fzn_cumulative.mzn", include_str!("../mznlib/fzn_cumulative.mzn")),
    ("fzn_diffn.mzn", include_str!("../mznlib/fzn_diffn.mzn")),
    ("fzn_diffn_nonstrict.mzn", include_str!("../mznlib/fzn_diffn_nonstrict.mzn")),
    ("fzn_disjunctive.mzn", include_str!("../mznlib/fzn_disjunctive.mzn")),
    ("fzn_disjunctive_strict.mzn", include_str!("../mznlib/fzn_disjunctive_strict.mzn")),
    ("fzn_circuit.mzn", include_str!("../mznlib/fzn_circuit.mzn")),
    ("fzn_subcircuit.mzn", include_str!("../mznlib/fzn_subcircuit.mzn")),
    ("fzn_regular.mzn", include_str!("../mznlib/fzn_regular.mzn")),
    ("fzn_regular_set.mzn", include_str!("../mznlib/fzn_regular_set.mzn")),
    ("fzn_inverse.mzn", include_str!("../mznlib/fzn_inverse.mzn")),
    ("fzn_lex_less_int.mzn", include_str!("../mznlib/fzn_lex_less_int.mzn")),
    ("fzn_lex_lesseq_int.mzn", include_str!("../mznlib/fzn_lex_lesseq_int.mzn")),
    ("fzn_lex_less_bool.mzn", include_str!("../mznlib/fzn_lex_less_bool.mzn")),
    ("fzn_lex_lesseq_bool.mzn", include_str!("../mznlib/fzn_lex_lesseq_bool.mzn")),
    ("fzn_global_cardinality.mzn", include_str!("../mznlib/fzn_global_cardinality.mzn")),
    ("fzn_global_cardinality_closed.mzn", include_str!("../mznlib/fzn_global_cardinality_closed.mzn")),
    ("fzn_global_cardinality_low_up.mzn", include_str!("../mznlib/fzn_global_cardinality_low_up.mzn")),
    ("fzn_global_cardinality_low_up_closed.mzn", include_str!("../mznlib/fzn_global_cardinality_low_up_closed.mzn")),
];

/// Whether the command line names MiniZinc or FlatZinc files.
pub(crate) fn is_minizinc(args: &SolveArgs) -> bool {
    args.models.iter().any(|p| matches!(extension(p).as_str(), "mzn" | "fzn" | "fzn.json"))
}

fn extension(path: &Path) -> String {
    let name = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
    if name.ends_with(".fzn.json") {
        return "fzn.json".into();
    }
    path.extension().map(|e| e.to_string_lossy().to_string()).unwrap_or_default()
}

/// Solves the one MiniZinc or FlatZinc model of the command line.
pub(crate) fn solve(args: &SolveArgs) -> io::Result<u8> {
    if args.format == Format::Svg || args.out.is_some() {
        writeln!(
            io::stderr(),
            "error: MiniZinc and FlatZinc models have no board to draw: --format svg and --out do not apply"
        )?;
        return Ok(BAD_INPUT);
    }
    let start = Instant::now();
    // Flattening, reading and compiling count against the time limit too.
    let armed = limits::arm(args.timeout.map(Duration::from_secs_f64), hard_stop(args));
    let (models, data): (Vec<&PathBuf>, Vec<&PathBuf>) =
        args.models.iter().partition(|p| matches!(extension(p).as_str(), "mzn" | "fzn" | "fzn.json"));
    if models.len() != 1 || !args.inline.is_empty() {
        writeln!(io::stderr(), "error: give one .mzn or .fzn model (with its .dzn or .json data files), nothing else")?;
        return Ok(BAD_INPUT);
    }
    let model_path = models[0];
    if let Some(other) = data.iter().find(|p| !matches!(extension(p).as_str(), "dzn" | "json")) {
        writeln!(
            io::stderr(),
            "error: `{}` is neither a MiniZinc data file (.dzn, .json) nor a model",
            other.display()
        )?;
        return Ok(BAD_INPUT);
    }
    if extension(model_path) != "mzn" {
        if !data.is_empty() {
            writeln!(io::stderr(), "error: a FlatZinc model takes no data files")?;
            return Ok(BAD_INPUT);
        }
        return solve_fzn(args, model_path, None, start, &armed);
    }
    let work = match Workspace::new() {
        Ok(work) => work,
        Err(e) => {
            writeln!(io::stderr(), "error: cannot write cpsolve's MiniZinc library to a temporary directory: {e}")?;
            return Ok(BAD_INPUT);
        }
    };
    let fzn = work.dir.join("model.fzn");
    let ozn = work.dir.join("model.ozn");
    let flattened = Command::new("minizinc")
        .arg("--solver")
        .arg(work.dir.join("cpsolve.msc"))
        .arg("-c")
        .arg(model_path)
        .args(&data)
        .arg("--fzn")
        .arg(&fzn)
        .arg("--ozn")
        .arg(&ozn)
        .stdout(Stdio::null())
        .spawn()
        .and_then(|child| wait_or_stop(child, armed.stop()));
    match flattened {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            writeln!(
                io::stderr(),
                "error: `minizinc` is not installed, and a .mzn model needs it to be flattened\n  \
                 install MiniZinc (Debian and Ubuntu: `apt-get install minizinc`; elsewhere: \
                 https://www.minizinc.org/), or give cpsolve a .fzn file"
            )?;
            Ok(BAD_INPUT)
        }
        Err(e) => {
            writeln!(io::stderr(), "error: cannot run `minizinc`: {e}")?;
            Ok(BAD_INPUT)
        }
        Ok(None) => {
            // The time or memory limit struck while MiniZinc was flattening.
            let reached = hard_stop(args);
            let stop = if armed.stop().requested() == Some(Stop::Memory) { reached.memory } else { reached.time };
            io::stdout().write_all(stop.as_bytes())?;
            Ok(LIMIT)
        }
        // minizinc has printed its own located error.
        Ok(Some(status)) if !status.success() => Ok(BAD_INPUT),
        Ok(Some(_)) => solve_fzn(args, &fzn, Some(&ozn), start, &armed),
    }
}

/// Waits for the flattening to end, or kills it when a limit strikes (`None`): the
/// watchdog's hard stop would otherwise end cpsolve and leave MiniZinc running.
fn wait_or_stop(mut child: Child, stop: &StopToken) -> io::Result<Option<ExitStatus>> {
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(Some(status));
        }
        if stop.requested().is_some() {
            child.kill()?;
            child.wait()?;
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// What a run cut short by a limit prints where nothing else can be: in text, a FlatZinc
/// comment line (solutions already printed stay valid output); in JSON, the run's object.
fn hard_stop(args: &SolveArgs) -> limits::HardStop {
    let file = args.models.iter().find(|p| matches!(extension(p).as_str(), "mzn" | "fzn" | "fzn.json"));
    let file = file.map(|p| p.display().to_string()).unwrap_or_default();
    limits::stop_lines(args.timeout, |why: &str, name: &str| match args.format {
        Format::Text | Format::Svg => format!("% stopped: {why}\n"),
        Format::Json => {
            let object = json!({ "file": file, "kind": "minizinc", "status": "limit", "stopped": name });
            format!("{object}\n")
        }
    })
}

/// A temporary directory holding the solver library and configuration, removed on drop.
struct Workspace {
    dir: PathBuf,
}

impl Workspace {
    fn new() -> io::Result<Workspace> {
        let dir = std::env::temp_dir().join(format!("cpsolve-mzn-{}", std::process::id()));
        let lib = dir.join("mznlib");
        std::fs::create_dir_all(&lib)?;
        for (name, text) in MZNLIB {
            std::fs::write(lib.join(name), text)?;
        }
        let executable = std::env::current_exe()?.with_file_name("fzn-cpsolve");
        let msc = json!({
            "id": "org.cpsolve.cpsolve",
            "name": "cpsolve",
            "version": env!("CARGO_PKG_VERSION"),
            "mznlib": lib,
            "executable": executable,
            "tags": ["cp", "int"],
            "stdFlags": ["-a", "-f", "-i", "-n", "-p", "-r", "-s", "-t"],
            "supportsMzn": false,
            "supportsFzn": true,
            "needsSolns2Out": true,
        });
        std::fs::write(dir.join("cpsolve.msc"), serde_json::to_string_pretty(&msc).unwrap_or_default())?;
        Ok(Workspace { dir })
    }
}

impl Drop for Workspace {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn solve_fzn(
    args: &SolveArgs,
    path: &Path,
    ozn: Option<&Path>,
    start: Instant,
    armed: &limits::watchdog::Armed,
) -> io::Result<u8> {
    let label = path.display().to_string();
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => {
            writeln!(io::stderr(), "error: cannot read `{label}`: {e}")?;
            return Ok(BAD_INPUT);
        }
    };
    let mut model = match cpsolve_flatzinc::load(&text, armed.stop()) {
        Ok(model) => model,
        Err(_) if armed.stop().requested().is_some() => {
            let stop = hard_stop(args);
            let line = if armed.stop().requested() == Some(Stop::Memory) { stop.memory } else { stop.time };
            io::stdout().write_all(line.as_bytes())?;
            return Ok(LIMIT);
        }
        Err(diagnostic) => {
            let rendered = cpsolve_dsl::render(&label, &text, &[diagnostic], io::stderr().is_terminal());
            io::stderr().write_all(rendered.as_bytes())?;
            return Ok(BAD_INPUT);
        }
    };
    for warning in &model.warnings {
        writeln!(io::stderr(), "warning: {warning}")?;
    }
    let timeout = args.timeout.map(|s| Duration::from_secs_f64(s).saturating_sub(start.elapsed()));
    let options = Options {
        all: args.all || args.count,
        solutions: args.limit,
        free: false,
        timeout,
        verify: true,
        // This run's model is solved once, then dropped.
        final_search: true,
        ..Options::default()
    };
    let optimising = !matches!(model.goal, Goal::Satisfy);
    let enumerate = optimising || args.all || args.count || args.limit.is_some();
    let label = match ozn {
        Some(_) => args.models.iter().find(|p| extension(p) == "mzn").map(|p| p.display().to_string()).unwrap_or(label),
        None => label,
    };
    let result = match args.format {
        Format::Json => {
            let mut solutions = Vec::new();
            let result = cpsolve_flatzinc::solve(&mut model, &options, |model, found| {
                if !args.count {
                    solutions.push(solution_json(model, found).to_string());
                }
            });
            armed.searched();
            let object = result_json(&label, &result, optimising, args.stats);
            report::write_with_solutions(&mut io::stdout().lock(), &object, &solutions)?;
            result
        }
        Format::Text | Format::Svg => {
            let mut sink = TextSink::new(ozn)?;
            let result = cpsolve_flatzinc::solve(&mut model, &options, |model, found| {
                if !args.count {
                    sink.write(&format_solution(&model.outputs, found));
                }
            });
            armed.searched();
            if args.count {
                sink.write(&format!("count: {}\n", result.solutions));
            }
            if let Some(line) = status_line(result.status, enumerate) {
                sink.write(&format!("{line}\n"));
            }
            sink.finish()?;
            if args.stats {
                let s = &result.stats;
                writeln!(
                    io::stderr(),
                    "stats: nodes {} failures {} propagations {} solutions {} depth {} time {:.3} ms",
                    s.nodes,
                    s.failures,
                    s.propagations,
                    result.solutions,
                    s.max_depth,
                    s.time.as_secs_f64() * 1e3
                )?;
                let posted: Vec<String> = model.posted.iter().map(|(name, n)| format!("{name} {n}")).collect();
                writeln!(io::stderr(), "constraints: {}", posted.join(", "))?;
            }
            result
        }
    };
    Ok(exit_code(&result))
}

fn exit_code(result: &RunResult) -> u8 {
    match result.status {
        Status::Unsatisfiable => UNSATISFIABLE,
        Status::Unknown => LIMIT,
        _ if result.stopped.is_some() => LIMIT,
        _ => SOLVED,
    }
}

/// Where text output goes: straight to standard output (FlatZinc), or through `minizinc
/// --ozn-file` (MiniZinc), which prints each solution as the model's output item says.
struct TextSink {
    child: Option<std::process::Child>,
    error: Option<io::Error>,
}

impl TextSink {
    fn new(ozn: Option<&Path>) -> io::Result<TextSink> {
        let child = match ozn {
            None => None,
            Some(ozn) => Some(Command::new("minizinc").arg("--ozn-file").arg(ozn).stdin(Stdio::piped()).spawn()?),
        };
        Ok(TextSink { child, error: None })
    }

    fn write(&mut self, text: &str) {
        let written = match self.child.as_mut().and_then(|c| c.stdin.as_mut()) {
            Some(stdin) => stdin.write_all(text.as_bytes()),
            None => io::stdout().write_all(text.as_bytes()).and_then(|_| io::stdout().flush()),
        };
        if let Err(e) = written {
            self.error.get_or_insert(e);
        }
    }

    fn finish(mut self) -> io::Result<()> {
        if let Some(mut child) = self.child.take() {
            drop(child.stdin.take());
            child.wait()?;
        }
        self.error.map_or(Ok(()), Err)
    }
}

fn value_json(kind: Kind, v: i64) -> Value {
    match kind {
        Kind::Bool => Value::from(v != 0),
        Kind::Int => Value::from(v),
    }
}

/// One solution: each output variable under its name; arrays nested by their index sets.
fn solution_json(model: &Model, found: &Found) -> Value {
    let mut object = Map::new();
    for (output, values) in model.outputs.iter().zip(&found.values) {
        let value = match &output.dims {
            None => value_json(output.kind, values[0]),
            Some(dims) => nest(output.kind, dims, values),
        };
        object.insert(output.name.clone(), value);
    }
    Value::Object(object)
}

fn nest(kind: Kind, dims: &[(i64, i64)], values: &[i64]) -> Value {
    match dims {
        [] | [_] => Value::Array(values.iter().map(|&v| value_json(kind, v)).collect()),
        [first, rest @ ..] => {
            let rows = (first.1 - first.0 + 1).max(1) as usize;
            let width = values.len() / rows;
            Value::Array(values.chunks(width.max(1)).map(|chunk| nest(kind, rest, chunk)).collect())
        }
    }
}

fn result_json(file: &str, result: &RunResult, optimising: bool, stats: bool) -> Value {
    let status = match exit_code(result) {
        SOLVED => "solved",
        UNSATISFIABLE => "unsatisfiable",
        _ => "limit",
    };
    let mut object = Map::new();
    object.insert("file".into(), Value::from(file));
    object.insert("kind".into(), Value::from("minizinc"));
    object.insert("status".into(), Value::from(status));
    if optimising {
        object.insert("optimal".into(), Value::from(result.status == Status::Complete));
    }
    object.insert("count".into(), Value::from(result.solutions as u64));
    object.insert("solutions".into(), Value::from(report::SOLUTIONS_HERE));
    if let Some(best) = result.objective {
        object.insert("objective".into(), Value::from(best));
    }
    if let Some(stop) = result.stopped {
        let name = match stop {
            Stop::Time => "time",
            Stop::Memory => "memory",
            _ => "interrupted",
        };
        object.insert("stopped".into(), Value::from(name));
    }
    if stats {
        let s = &result.stats;
        object.insert(
            "stats".into(),
            json!({
                "nodes": s.nodes,
                "failures": s.failures,
                "propagations": s.propagations,
                "time_ms": (s.time.as_secs_f64() * 1e6).round() / 1e3,
            }),
        );
    }
    Value::Object(object)
}

#[cfg(test)]
mod tests {
    use super::MZNLIB;

    #[test]
    fn the_built_in_library_is_the_whole_of_mznlib() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("mznlib");
        let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
            .expect("mznlib/ exists")
            .map(|e| e.expect("a directory entry").file_name().to_string_lossy().to_string())
            .collect();
        on_disk.sort();
        let mut built_in: Vec<String> = MZNLIB.iter().map(|(name, _)| name.to_string()).collect();
        built_in.sort();
        assert_eq!(built_in, on_disk, "src/flatzinc.rs lists every file of mznlib/");
    }
}
