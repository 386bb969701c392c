//! `cpsolve model.fzn` and `cpsolve model.mzn [data.dzn ...]`: MiniZinc models from
//! cpsolve's own command line.
//!
//! A `.mzn` model goes to the installed `minizinc` with cpsolve's solver library (`mznlib/`,
//! built into this binary and written to a temporary directory for the run). A plain text
//! run is MiniZinc's whole run ([`mzn_handoff`]): it flattens, runs `fzn-cpsolve` and
//! prints. The others (JSON, `--count`, `--stats`, `--nodes`) are flattened by
//! `minizinc -c` and solved here like a `.fzn` model; their text prints as the model's
//! output item says: evaluated here ([`ozn`]) where the output specification allows, else by
//! `minizinc --ozn-file`; `--format json` prints the output variables under their names in
//! the model.

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use cpsolve_flatzinc::{
    format_solution, solution_json, status_line, Goal, Options, RunResult, SearchChoice, Status, Stop,
};
use serde_json::{json, Map, Value};

use cpsolve_engine::StopToken;
use cpsolve_models::report;

use crate::cli::{Format, Search, SolveArgs};
use crate::reading::{Input, ReadError};
use crate::solve::{report_errors, report_unlocated, Source};
use crate::{limits, mzn_handoff, mzn_output, ozn};

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

/// The name the run is reported under: its model, or the first file named.
fn run_label(args: &SolveArgs) -> String {
    let model = args.models.iter().find(|p| matches!(extension(p).as_str(), "mzn" | "fzn" | "fzn.json"));
    model.or(args.models.first()).map(|p| p.display().to_string()).unwrap_or_default()
}

/// An error of the run that is at no place in the model: on stderr, and as the run's
/// object in JSON.
fn refuse(args: &SolveArgs, message: &str) -> io::Result<u8> {
    report_unlocated(&run_label(args), message, args.format, &mut io::stdout().lock())
}

/// Solves the one MiniZinc or FlatZinc model of the command line.
pub(crate) fn solve(args: &SolveArgs) -> io::Result<u8> {
    if args.format == Format::Svg || args.out.is_some() {
        return refuse(args, "MiniZinc and FlatZinc models have no board to draw: --format svg and --out do not apply");
    }
    let start = Instant::now();
    let (models, data): (Vec<&PathBuf>, Vec<&PathBuf>) =
        args.models.iter().partition(|p| matches!(extension(p).as_str(), "mzn" | "fzn" | "fzn.json"));
    if models.len() != 1 || !args.inline.is_empty() {
        return refuse(args, "give one .mzn or .fzn model (with its .dzn or .json data files), nothing else");
    }
    let model_path = models[0];
    if let Some(other) = data.iter().find(|p| !matches!(extension(p).as_str(), "dzn" | "json")) {
        let message = format!("`{}` is neither a MiniZinc data file (.dzn, .json) nor a model", other.display());
        return refuse(args, &message);
    }
    let handoff = if extension(model_path) == "mzn" { mzn_handoff::flags(args) } else { None };
    // Flattening, reading and compiling count against the time limit too. A run handed to
    // MiniZinc has MiniZinc's limit instead, and nothing here to stop.
    let armed = match handoff {
        Some(_) => limits::arm(None, hard_stop(args)),
        None => limits::arm(args.timeout.map(Duration::from_secs_f64), hard_stop(args)),
    };
    if extension(model_path) != "mzn" {
        if !data.is_empty() {
            return refuse(args, "a FlatZinc model takes no data files");
        }
        return solve_fzn(args, model_path, None, start, &armed);
    }
    let work = match Workspace::new() {
        Ok(work) => work,
        Err(e) => {
            return refuse(args, &format!("cannot write cpsolve's MiniZinc library to a temporary directory: {e}"));
        }
    };
    if let Some(flags) = handoff {
        let mut command = Command::new("minizinc");
        let _ = command.arg("--solver").arg(work.dir.join("cpsolve.msc")).args(flags);
        let files: Vec<&PathBuf> = models.iter().chain(&data).copied().collect();
        return match mzn_handoff::run(command, &files, &work.dir.join("outcome")) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => refuse(args, NO_MINIZINC),
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Err(e),
            Err(e) => refuse(args, &format!("cannot run `minizinc`: {e}")),
            Ok(mzn_handoff::Ran::Done(code)) => Ok(code),
            // MiniZinc said why on stderr.
            Ok(mzn_handoff::Ran::Failed) => match unreadable(args) {
                Some(message) => refuse(args, &message),
                None => Ok(BAD_INPUT),
            },
        };
    }
    let fzn = work.dir.join("model.fzn");
    let ozn = work.dir.join("model.ozn");
    // In JSON, the output specification prints each solution as MiniZinc's JSON of the
    // model's output variables (sets, enums and defined variables included: mzn_output.rs).
    // `_output` holds what the output item prints, which tells the answers apart as the
    // text output does. A count in text is counted the same way, as the JSON's is.
    let output_mode: &[&str] = if args.format == Format::Json || args.count {
        &["--output-mode", "json", "--output-output-item"]
    } else {
        &[]
    };
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
        .args(output_mode)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            // Read while MiniZinc runs: a full pipe would block it.
            let said = read_in_background(child.stderr.take());
            let status = wait_or_stop(child, armed.stop())?;
            Ok((status, said.join().unwrap_or_default()))
        });
    match flattened {
        Err(e) if e.kind() == io::ErrorKind::NotFound => refuse(args, NO_MINIZINC),
        Err(e) => refuse(args, &format!("cannot run `minizinc`: {e}")),
        // The time or memory limit struck while MiniZinc was flattening.
        Ok((None, _)) => stopped(args, armed.stop().requested()),
        Ok((Some(status), said)) => {
            // MiniZinc's warnings and errors are the user's to read, as MiniZinc wrote them.
            io::stderr().write_all(said.as_bytes())?;
            if !status.success() {
                if let Some(message) = unreadable(args) {
                    return refuse(args, &message);
                }
                if args.format == Format::Json {
                    let object = flattening_error(&model_path.display().to_string(), &said);
                    writeln!(io::stdout(), "{object}")?;
                }
                return Ok(BAD_INPUT);
            }
            if let Err(e) =
                std::fs::read_to_string(&ozn).and_then(|text| std::fs::write(&ozn, mzn_output::repair_ozn(&text)))
            {
                return refuse(args, &format!("cannot read MiniZinc's output specification: {e}"));
            }
            solve_fzn(args, &fzn, Some(&ozn), start, &armed)
        }
    }
}

const NO_MINIZINC: &str = "`minizinc` is not installed, and a .mzn model needs it to be flattened\n  \
    install MiniZinc (Debian and Ubuntu: `apt-get install minizinc`; elsewhere: \
    https://www.minizinc.org/), or give cpsolve a .fzn file";

/// After MiniZinc failed on the model: a file it could not read, said as for every other
/// file (MiniZinc reads the files itself).
fn unreadable(args: &SolveArgs) -> Option<String> {
    let (path, e) = args.models.iter().find_map(|p| std::fs::File::open(p).err().map(|e| (p, e)))?;
    Some(format!("cannot read `{}`: {e}", path.display()))
}

/// A pipe read to its end by a thread of its own.
fn read_in_background(pipe: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_string(&mut text);
        }
        text
    })
}

/// A pipe copied to standard output by a thread of its own, less its first `skip` bytes.
fn copy_after(mut pipe: impl Read + Send + 'static, skip: usize) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = pipe.read_to_end(&mut text);
        let _ = io::stdout().write_all(text.get(skip..).unwrap_or_default()).and_then(|_| io::stdout().flush());
        String::new()
    })
}

/// The JSON object of a model MiniZinc could not flatten, from what MiniZinc said: its
/// `Error: ...` line is the message; its place (`FILE:LINE.COLUMN`, after the message for a
/// type error, before it for a syntax error or in a stack of calls) gives line and column;
/// a place in another file than the model names that file.
fn flattening_error(label: &str, said: &str) -> Value {
    let lines: Vec<&str> = said.lines().collect();
    let at_error = lines.iter().rposition(|line| line.starts_with("Error: "));
    let message = match at_error {
        Some(i) => lines[i].trim_start_matches("Error: ").to_string(),
        None => said.lines().rev().find(|line| !line.trim().is_empty()).unwrap_or("MiniZinc failed").to_string(),
    };
    let place = at_error
        .and_then(|i| {
            let after = lines[i + 1..].iter().find_map(|line| place_of(line));
            after.or_else(|| lines[..i].iter().rev().find_map(|line| place_of(line)))
        })
        .or_else(|| lines.iter().find_map(|line| place_of(line)));
    let error = match place {
        Some((file, line, column)) if !same_file(&file, label) => {
            json!({ "message": message, "file": file, "line": line, "column": column })
        }
        Some((_, line, column)) => json!({ "message": message, "line": line, "column": column }),
        None => json!({ "message": message, "line": 0, "column": 0 }),
    };
    crate::solve::error_object(label, vec![error])
}

/// MiniZinc's place of an error, `FILE:LINE.COLUMN` (then `-...` and `:` optional).
fn place_of(line: &str) -> Option<(String, u64, u64)> {
    let line = line.trim().trim_end_matches(':');
    let (file, at) = line.rsplit_once(':')?;
    let start = at.split('-').next()?;
    let (row, column) = start.split_once('.')?;
    let (row, column) = (row.parse().ok()?, column.parse().ok()?);
    (!file.is_empty() && !file.contains(' ')).then(|| (file.to_string(), row, column))
}

fn same_file(a: &str, b: &str) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// Waits for the flattening to end, or kills it when a limit strikes (`None`): the
/// watchdog's hard stop would otherwise end cpsolve and leave MiniZinc running.
///
/// A thread blocks until MiniZinc exits and says so at once; meanwhile this thread wakes
/// every [`STOP_POLL`] only to look at the stop token, so the end of a flattening is seen
/// the moment it happens, not at the next poll.
fn wait_or_stop(mut child: Child, stop: &StopToken) -> io::Result<Option<ExitStatus>> {
    let pid = child.id();
    let (exited, ended) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        wait_without_reaping(pid);
        let _ = exited.send(());
    });
    loop {
        match ended.recv_timeout(STOP_POLL) {
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) if stop.requested().is_some() => {
                child.kill()?;
                child.wait()?;
                return Ok(None);
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
            Ok(()) | Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return child.wait().map(Some),
        }
    }
}

/// How often a flattening's wait looks at the stop token.
const STOP_POLL: Duration = Duration::from_millis(5);

/// Blocks until the process `pid` (a child of this one) has exited, and leaves it to be
/// reaped by [`Child::wait`]: until then its pid cannot be reused, so a kill of it by the
/// waiting thread meanwhile reaches no other process.
fn wait_without_reaping(pid: u32) {
    loop {
        // SAFETY: waitid(2) writes only the siginfo_t it is given.
        let done = unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            libc::waitid(libc::P_PID, pid as libc::id_t, &mut info, libc::WEXITED | libc::WNOWAIT)
        };
        if done == 0 || io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            return;
        }
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
            // The flags of fzn-cpsolve that a run handed to MiniZinc passes (src/mzn_handoff.rs).
            "extraFlags": [
                ["--search", "whose search", "opt:auto:model:free", "model"],
                ["--learning", "learning from failures", "opt:auto:yes:no", "auto"],
                ["--memory", "memory limit in MB", "int", "0"],
            ],
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

/// Prints the line of the limit that stopped the run (`reason`) where the run's answer
/// goes; the exit status of a limit.
fn stopped(args: &SolveArgs, reason: Option<Stop>) -> io::Result<u8> {
    io::stdout().write_all(hard_stop(args).line(reason).as_bytes())?;
    Ok(LIMIT)
}

fn solve_fzn(
    args: &SolveArgs,
    path: &Path,
    ozn: Option<&Path>,
    start: Instant,
    armed: &limits::watchdog::Armed,
) -> io::Result<u8> {
    let label = path.display().to_string();
    // Read as every model is: a stream (a FIFO) under the run's limits.
    let text = match Input::File(path.to_path_buf()).read(armed.stop()) {
        Ok(source) => source.text,
        Err(ReadError::Failed(message, _)) => return refuse(args, &message),
        Err(ReadError::Stopped(reason)) => return stopped(args, Some(reason)),
    };
    let mut model = match cpsolve_flatzinc::load_with_stop(&text, armed.stop()) {
        Ok(model) => model,
        Err(_) if armed.stop().requested().is_some() => return stopped(args, armed.stop().requested()),
        Err(diagnostic) => {
            // The FlatZinc is cpsolve's own reading of the model: located in that text.
            let map = cpsolve_dsl::SourceMap::single(label.as_str(), &text);
            let source = Source { label: label.clone(), text: String::new(), path: None };
            report_errors(&source, &map, &[diagnostic], args.format, &mut io::stdout().lock())?;
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
        search: match args.search {
            Search::Auto => SearchChoice::Auto,
            Search::Model => SearchChoice::Model,
            Search::Free => SearchChoice::Free,
        },
        timeout,
        nodes: args.nodes,
        verify: true,
        // This run's model is solved once, then dropped.
        final_search: true,
        // A solution is an answer of the model, distinct in its output (docs/flatzinc.md).
        distinct_outputs: true,
        learning: args.learning.asked(),
        ..Options::default()
    };
    let optimising = !matches!(model.goal, Goal::Satisfy);
    let label = match ozn {
        Some(_) => run_label(args),
        None => label,
    };
    if optimising && args.count {
        let message = format!(
            "--count does not apply to `{label}`: it has an objective (`minimize`/`maximize`); \
             --all lists the improving solutions, --limit N stops after N of them"
        );
        return refuse(args, &message);
    }
    let enumerate = optimising || args.all || args.count || args.limit.is_some();
    let result = match args.format {
        Format::Json => {
            let mut solutions = Vec::new();
            // A .mzn model's solutions are in its own names, as MiniZinc prints them.
            // Counted too: what tells two answers apart is what MiniZinc prints for them.
            let mut printer = ozn.map(|ozn| OutputPrinter::new(ozn, Stdio::piped(), 0)).transpose()?;
            let mut result = cpsolve_flatzinc::solve(&mut model, &options, |model, found| match printer.as_mut() {
                Some(printer) => printer.write(&format_solution(&model.outputs, found)),
                None if args.count => {}
                None => solutions.push(solution_json(model, found).to_string()),
            });
            armed.searched();
            if let Some(printer) = printer {
                match printer.finish()?.and_then(|stream| mzn_output::solutions(&stream)) {
                    Ok(printed) => {
                        let answers = mzn_output::distinct_answers(printed);
                        result.solutions = answers.len() as u128;
                        if !args.count {
                            solutions = answers.iter().map(Value::to_string).collect();
                        }
                    }
                    Err(message) => return refuse(args, &message),
                }
            }
            let object = result_json(&label, &result, optimising, args);
            report::write_with_solutions(&mut io::stdout().lock(), &object, &solutions)?;
            result
        }
        Format::Text | Format::Svg => {
            // A count of a .mzn model's answers is MiniZinc's (its printer's JSON, read back
            // as for `--format json`); the count line is cpsolve's own, on standard output.
            let counting = args.count && ozn.is_some();
            let mut sink = TextSink::new(if counting { None } else { ozn }, args.stats)?;
            let mut printer =
                if counting { ozn.map(|ozn| OutputPrinter::new(ozn, Stdio::piped(), 0)).transpose()? } else { None };
            let mut result = cpsolve_flatzinc::solve(&mut model, &options, |model, found| match printer.as_mut() {
                Some(printer) => printer.write(&format_solution(&model.outputs, found)),
                None if args.count => {}
                None => sink.write(&format_solution(&model.outputs, found)),
            });
            armed.searched();
            if let Some(printer) = printer {
                match printer.finish()?.and_then(|stream| mzn_output::solutions(&stream)) {
                    Ok(printed) => result.solutions = mzn_output::distinct_answers(printed).len() as u128,
                    Err(message) => return refuse(args, &message),
                }
            }
            if args.count {
                sink.write(&format!("count: {}\n", result.solutions));
            }
            if let Some(line) = status_line(result.status, enumerate) {
                sink.write(&format!("{line}\n"));
            }
            if let Err(message) = sink.finish()? {
                return refuse(args, &message);
            }
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

/// Where text output goes: straight to standard output (FlatZinc), or, for a MiniZinc
/// model, through its output item: evaluated here ([`ozn::Printer`]) when the specification
/// stays within what that evaluates, else by MiniZinc's printer.
struct TextSink {
    printer: Printer,
    error: Option<io::Error>,
    /// Whether to say on stderr which printer prints (`--stats`).
    stats: bool,
}

enum Printer {
    Direct,
    Own(ozn::Printer, PathBuf),
    MiniZinc(OutputPrinter),
}

/// Set to `minizinc`, MiniZinc's printer prints a model's solutions even where cpsolve's
/// would: the tests compare the two.
pub(crate) const PRINTER_VARIABLE: &str = "CPSOLVE_MZN_PRINTER";

impl TextSink {
    fn new(ozn: Option<&Path>, stats: bool) -> io::Result<TextSink> {
        let Some(ozn) = ozn else { return Ok(TextSink { printer: Printer::Direct, error: None, stats }) };
        let forced = std::env::var(PRINTER_VARIABLE).is_ok_and(|v| v == "minizinc");
        let own = if forced {
            Err(ozn::Unsupported(format!("{PRINTER_VARIABLE}=minizinc")))
        } else {
            ozn::Printer::new(&std::fs::read_to_string(ozn)?)
        };
        let printer = match own {
            Ok(own) => {
                if stats {
                    writeln!(io::stderr(), "printer: cpsolve")?;
                }
                Printer::Own(own, ozn.to_path_buf())
            }
            Err(why) => {
                if stats {
                    writeln!(io::stderr(), "printer: minizinc ({})", why.0)?;
                }
                Printer::MiniZinc(OutputPrinter::new(ozn, Stdio::inherit(), 0)?)
            }
        };
        Ok(TextSink { printer, error: None, stats })
    }

    fn write(&mut self, text: &str) {
        let direct = match &mut self.printer {
            Printer::Direct => text.to_string(),
            Printer::MiniZinc(printer) => return printer.write(text),
            Printer::Own(own, path) => match own.feed(text) {
                Ok(printed) => printed,
                Err(failed) => {
                    // MiniZinc prints the whole stream again; what was printed is skipped.
                    if self.stats {
                        let _ = writeln!(io::stderr(), "printer: minizinc from here ({})", failed.why.0);
                    }
                    match OutputPrinter::new(path, Stdio::piped(), failed.printed) {
                        Ok(mut printer) => {
                            printer.write(&failed.replay);
                            self.printer = Printer::MiniZinc(printer);
                        }
                        Err(e) => {
                            self.error.get_or_insert(e);
                        }
                    }
                    return;
                }
            },
        };
        if let Err(e) = io::stdout().write_all(direct.as_bytes()).and_then(|_| io::stdout().flush()) {
            self.error.get_or_insert(e);
        }
    }

    /// `Err(message)`: MiniZinc could not print the solutions (it has said why on stderr).
    fn finish(self) -> io::Result<Result<(), String>> {
        if let Some(e) = self.error {
            return Err(e);
        }
        match self.printer {
            Printer::MiniZinc(printer) => Ok(printer.finish()?.map(|_| ())),
            Printer::Direct | Printer::Own(..) => Ok(Ok(())),
        }
    }
}

/// `minizinc --ozn-file`: MiniZinc's printer of a flattened model's solutions, fed the
/// FlatZinc solutions. It prints an answer once (two solutions whose output is the same
/// text are one answer); the JSON's answers are counted the same way
/// ([`mzn_output::distinct_answers`]), as the printer's JSON holds every variable.
struct OutputPrinter {
    child: Child,
    /// Its output, when it is read back (JSON) rather than left on standard output.
    printed: Option<std::thread::JoinHandle<String>>,
    error: Option<io::Error>,
}

impl OutputPrinter {
    /// `skip`: with `stdout` piped, that many bytes of what it prints are dropped and the
    /// rest copied to standard output (a stream replayed after cpsolve printed its start).
    fn new(ozn: &Path, stdout: Stdio, skip: usize) -> io::Result<OutputPrinter> {
        let mut child =
            Command::new("minizinc").arg("--ozn-file").arg(ozn).stdin(Stdio::piped()).stdout(stdout).spawn()?;
        let pipe = child.stdout.take();
        let printed = match skip {
            0 => pipe.map(|pipe| read_in_background(Some(pipe))),
            _ => pipe.map(|pipe| copy_after(pipe, skip)),
        };
        Ok(OutputPrinter { child, printed, error: None })
    }

    fn write(&mut self, text: &str) {
        if self.error.is_some() {
            return;
        }
        if let Some(Err(e)) = self.child.stdin.as_mut().map(|stdin| stdin.write_all(text.as_bytes())) {
            self.error = Some(e);
        }
    }

    /// What it printed (empty when it printed to standard output), or why it failed.
    fn finish(mut self) -> io::Result<Result<String, String>> {
        drop(self.child.stdin.take());
        let status = self.child.wait()?;
        let printed = self.printed.take().map(|reader| reader.join().unwrap_or_default()).unwrap_or_default();
        if !status.success() {
            return Ok(Err(format!("`minizinc` could not print the solutions as the model's output says ({status})")));
        }
        // MiniZinc read the whole stream: a write that failed is cpsolve's own output's.
        self.error.map_or(Ok(Ok(printed)), Err)
    }
}

fn result_json(file: &str, result: &RunResult, optimising: bool, args: &SolveArgs) -> Value {
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
    // A count lists no solutions (json.md), as for the other kinds.
    if !args.count {
        object.insert("solutions".into(), Value::from(report::SOLUTIONS_HERE));
    }
    if let Some(best) = result.objective {
        object.insert("objective".into(), Value::from(best));
    }
    if let Some(stop) = result.stopped {
        let name = match stop {
            Stop::Time => "time",
            Stop::Memory => "memory",
            Stop::Nodes => "nodes",
            _ => "interrupted",
        };
        object.insert("stopped".into(), Value::from(name));
    }
    if args.stats {
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
    use super::Stop;
    use super::{wait_or_stop, MZNLIB};
    use cpsolve_engine::StopToken;
    use std::process::Command;

    #[test]
    fn a_flattening_that_ends_gives_its_exit_status() {
        let child = Command::new("sh").args(["-c", "exit 7"]).spawn().expect("sh runs");
        let status = wait_or_stop(child, &StopToken::new()).expect("waited");
        assert_eq!(status.and_then(|s| s.code()), Some(7));
    }

    #[test]
    fn a_stop_kills_the_flattening() {
        let child = Command::new("sleep").arg("600").spawn().expect("sleep runs");
        let pid = child.id();
        let stop = StopToken::new();
        stop.request(Stop::Time);
        assert_eq!(wait_or_stop(child, &stop).expect("waited"), None);
        // Killed and reaped: no process of that pid is left.
        // SAFETY: signal 0 only asks whether the pid exists.
        let alive = unsafe { libc::kill(pid as libc::pid_t, 0) } == 0;
        assert!(!alive, "sleep {pid} still runs");
    }

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
