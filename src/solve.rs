//! Solving the models named on the command line, one after the other, and printing each
//! answer as it comes (text) or as one JSON object per line.

use std::io::{self, IsTerminal, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use cpsolve_dsl::ast::{File, SolveMode};
use cpsolve_dsl::{Diagnostic, Parsed, SourceMap};
use cpsolve_engine::StopToken;
use cpsolve_models::problem::Problem;
use cpsolve_models::report;
use cpsolve_models::run::{self, RunOptions, Status};
use cpsolve_puzzles::direct::{direct_kind, Direct};
use cpsolve_puzzles::outcome::Outcome;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{json, Value};

use crate::cli::{Format, SolveArgs};
use crate::includes;
use crate::limits;
use crate::pictures::{self, Destination};
use crate::reading::{Input, ReadError};

/// A model's text and the name it is reported under.
pub(crate) struct Source {
    pub(crate) label: String,
    pub(crate) text: String,
    /// The file it was read from: its `include`s are relative to that file's directory
    /// (`None`: standard input or `-e`, whose includes are relative to the current one).
    pub(crate) path: Option<PathBuf>,
}

/// Exit statuses (docs/cli.md, "Exit status").
pub(crate) const SOLVED: u8 = 0;
pub(crate) const UNSATISFIABLE: u8 = 1;
pub(crate) const BAD_INPUT: u8 = 2;
pub(crate) const LIMIT: u8 = 3;

/// The status of several models together: the most serious one wins.
fn combine(a: u8, b: u8) -> u8 {
    let rank = |code: u8| match code {
        SOLVED => 0,
        UNSATISFIABLE => 1,
        LIMIT => 2,
        _ => 3,
    };
    if rank(b) > rank(a) {
        b
    } else {
        a
    }
}

/// A model that compiled: its syntax tree (workers compile it again), the first
/// compilation, and the slice of the search it asks for.
struct Compiled {
    file: File,
    problem: Problem,
    part: Option<(u64, u64)>,
    /// With `part`: the model's identity apart from its part number
    /// ([`crate::split::model_id`]), for `cpsolve merge`.
    model_id: Option<String>,
}

/// What a source becomes once parsed: a puzzle with its own solver (not one engine search),
/// a JSMinesweeper position file, or a model compiled for the engine.
#[allow(
    clippy::large_enum_variant,
    reason = "one model per source, made and used once: boxing would only add an allocation"
)]
enum Model {
    Direct(Direct, File),
    MineFile,
    Search(Compiled),
}

/// JSMinesweeper position files are read as they are, not as `.puz` models.
pub(crate) fn is_mine_file(source: &Source) -> bool {
    source.label.ends_with(".mine")
}

/// Parses (once, with the files it includes) and compiles under the run's stop token; on
/// failure, reports the errors (stderr, and JSON on stdout), or the limit that stopped the
/// compiling (`lines`: the stop lines, as the watchdog has them). The files read come back
/// too, for later errors.
fn compile(
    source: &Source,
    format: Format,
    (lines, stop): (&limits::HardStop, &StopToken),
    out: &mut impl Write,
) -> io::Result<(SourceMap, Result<Model, u8>)> {
    if is_mine_file(source) {
        return Ok((SourceMap::single(source.label.as_str(), &source.text), Ok(Model::MineFile)));
    }
    let Parsed { map, file } = includes::parse(source);
    let compiled = file.and_then(|file| {
        if let Some(kind) = direct_kind(&file) {
            return Ok(Model::Direct(kind, file));
        }
        let part = cpsolve_models::part(&file)?;
        let model_id = part.map(|_| crate::split::model_id(map.text(), &cpsolve_models::part_spans(&file)));
        let problem = cpsolve_models::compile_with_stop(&file, stop)?;
        Ok(Model::Search(Compiled { file, problem, part, model_id }))
    });
    let result = match compiled {
        Ok(model) => Ok(model),
        Err(_) if stop.requested().is_some() => {
            let line = lines.line(stop.requested());
            // Standard output of an SVG run is the picture or nothing.
            match format {
                Format::Svg => io::stderr().write_all(line.as_bytes())?,
                Format::Text | Format::Json => out.write_all(line.as_bytes())?,
            }
            Err(LIMIT)
        }
        Err(diagnostics) => {
            report_errors(source, &map, &diagnostics, format, out)?;
            Err(BAD_INPUT)
        }
    };
    Ok((map, result))
}

/// Renders the errors of a model on stderr, each in the file it is in (`map`: the model's
/// files), and with `--format json` prints the model's error object.
pub(crate) fn report_errors(
    source: &Source,
    map: &SourceMap,
    diagnostics: &[Diagnostic],
    format: Format,
    out: &mut impl Write,
) -> io::Result<()> {
    let color = io::stderr().is_terminal();
    let rendered = cpsolve_dsl::render_map(map, diagnostics, color);
    io::stderr().write_all(rendered.as_bytes())?;
    if format == Format::Json {
        let errors: Vec<Value> = diagnostics
            .iter()
            .take(cpsolve_dsl::diagnostic::MAX_RENDERED)
            .map(|d| match map.locate(d.span.start) {
                // An error in an included file names that file.
                Some(at) if at.file > 0 => {
                    json!({ "message": d.message, "file": at.label, "line": at.line, "column": at.column })
                }
                Some(at) => json!({ "message": d.message, "line": at.line, "column": at.column }),
                None => json!({ "message": d.message, "line": 0, "column": 0 }),
            })
            .collect();
        writeln!(out, "{}", error_object(&source.label, errors))?;
    }
    Ok(())
}

/// The JSON object of a model that gave errors: each `{"message", "line", "column"}`, with
/// `file` when the error is in another file than the model's.
pub(crate) fn error_object(label: &str, errors: Vec<Value>) -> Value {
    json!({ "file": label, "status": "error", "errors": errors })
}

/// An error that is not at a place in a model's text (a file that cannot be read, a flag
/// that does not apply to the model): `error: MESSAGE` on stderr and, in JSON, the model's
/// error object, whose one error has line and column 0.
pub(crate) fn report_unlocated(label: &str, message: &str, format: Format, out: &mut impl Write) -> io::Result<u8> {
    out.flush()?;
    writeln!(io::stderr(), "error: {message}")?;
    if format == Format::Json {
        let error = json!({ "message": message, "line": 0, "column": 0 });
        writeln!(out, "{}", error_object(label, vec![error]))?;
    }
    Ok(BAD_INPUT)
}

/// A model that cannot be read: as [`report_unlocated`], but a byte that is not UTF-8 gives
/// its line and column in JSON as any located error does.
fn report_read_error(
    label: &str,
    message: &str,
    at: Option<(usize, usize)>,
    format: Format,
    out: &mut impl Write,
) -> io::Result<u8> {
    let Some((line, column)) = at else { return report_unlocated(label, message, format, out) };
    out.flush()?;
    writeln!(io::stderr(), "error: {message}")?;
    if format == Format::Json {
        let error = json!({ "message": message, "line": line, "column": column });
        writeln!(out, "{}", error_object(label, vec![error]))?;
    }
    Ok(BAD_INPUT)
}

fn run_options(args: &SolveArgs) -> RunOptions {
    let mode = if args.first {
        Some(SolveMode::First)
    } else if args.all {
        Some(SolveMode::All)
    } else if args.count {
        Some(SolveMode::Count)
    } else {
        None
    };
    let progress: Option<Arc<dyn Fn(u64, u64) + Send + Sync>> =
        (io::stderr().is_terminal() && args.format == Format::Text).then(|| {
            let bar = ProgressBar::new(0);
            bar.set_style(
                ProgressStyle::with_template("{spinner} {pos}/{len} subtrees {wide_bar} {elapsed_precise}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            let progress = move |done: u64, total: u64| {
                bar.set_length(total);
                bar.set_position(done);
                if done == total {
                    bar.finish_and_clear();
                }
            };
            Arc::new(progress) as Arc<dyn Fn(u64, u64) + Send + Sync>
        });
    RunOptions {
        mode,
        limit: args.limit,
        timeout: args.timeout.map(Duration::from_secs_f64),
        nodes: args.nodes,
        memory_mb: limits::memory::limit_mb(),
        threads: args.threads as usize,
        part: None,
        shared_bound: None,
        progress,
        picture: args.format == Format::Svg,
        learning: args.learning.asked(),
        // Each run gets its own from the watchdog when it is armed.
        stop: StopToken::new(),
    }
}

/// What a run cut short by the watchdog prints: the closing line of a limit, or the JSON
/// object of a run that found nothing it could print; then, as the process ends there, what
/// the models after it (`later`, their labels) answer: not run (`"stopped":"not_run"`).
fn hard_stop(label: &str, later: &[String], args: &SolveArgs) -> limits::HardStop {
    let mut stop = limits::stop_lines(args.timeout, |why: &str, name: &str| match args.format {
        Format::Text | Format::Svg => format!("stopped: {why}\n"),
        Format::Json => {
            let object = json!({ "file": label, "status": "limit", "stopped": name });
            format!("{object}\n")
        }
    });
    stop.later = later
        .iter()
        .map(|later| match args.format {
            Format::Json => format!("{}\n", json!({ "file": later, "status": "limit", "stopped": "not_run" })),
            Format::Text => format!("\n== {later} ==\nnot run: the limit of an earlier model ended the process\n"),
            // Standard output of an SVG run is the pictures or nothing.
            Format::Svg => String::new(),
        })
        .collect();
    stop
}

/// The stop line of `check`, which has no time limit: only the memory limit can strike.
fn check_stop(label: &str, timeout: Option<f64>) -> limits::HardStop {
    limits::stop_lines(timeout, |why: &str, _| format!("{label}: stopped: {why}\n"))
}

/// `cpsolve MODEL…`: solves each model in turn.
pub(crate) fn solve_all(args: &SolveArgs) -> io::Result<u8> {
    let all = Input::all(&args.models, &args.inline);
    if all.is_empty() {
        writeln!(io::stderr(), "error: no model given (a file, `-` for standard input, or -e 'MODEL')")?;
        return Ok(BAD_INPUT);
    }
    if args.out.is_some() && args.format != Format::Svg {
        // Said once, and in JSON once per model: each model's object says it was not solved.
        writeln!(io::stderr(), "error: --out is for pictures: use it with --format svg")?;
        if args.format == Format::Json {
            for input in &all {
                let error =
                    json!({ "message": "--out is for pictures: use it with --format svg", "line": 0, "column": 0 });
                println!("{}", error_object(&input.label(), vec![error]));
            }
        }
        return Ok(BAD_INPUT);
    }
    let destinations = match args.format {
        Format::Svg => match pictures::destinations(args).and_then(|destinations| {
            // No picture may overwrite a model named on the command line.
            for destination in &destinations {
                pictures::check_not_an_input(destination, args.models.iter().map(PathBuf::as_path))?;
            }
            Ok(destinations)
        }) {
            Ok(destinations) => destinations,
            Err(message) => {
                writeln!(io::stderr(), "error: {message}")?;
                return Ok(BAD_INPUT);
            }
        },
        Format::Text | Format::Json => vec![Destination::Stdout; all.len()],
    };
    let options = run_options(args);
    let mut out: Box<dyn Write> = match args.format {
        Format::Svg => Box::new(io::BufWriter::new(pictures::reserve_stdout()?)),
        Format::Text | Format::Json => Box::new(io::BufWriter::new(io::stdout().lock())),
    };
    let several = all.len() > 1;
    let mut worst = SOLVED;
    for (i, (input, destination)) in all.iter().zip(&destinations).enumerate() {
        let label = input.label();
        if several && args.format == Format::Text {
            if i > 0 {
                writeln!(out)?;
            }
            writeln!(out, "== {label} ==")?;
            // A hard stop writes past this buffer: the header must be out before it.
            out.flush()?;
        }
        // Reading, parsing and compiling count against the limits too.
        let later: Vec<String> = all[i + 1..].iter().map(Input::label).collect();
        let stop = hard_stop(&label, &later, args);
        let armed = limits::arm(options.timeout, stop.clone());
        let options = RunOptions { stop: armed.stop().clone(), ..options.clone() };
        let source = match input.read(armed.stop()) {
            Ok(source) => source,
            Err(ReadError::Stopped(reason)) => {
                let line = stop.line(Some(reason));
                // Standard output of an SVG run is the picture or nothing.
                match args.format {
                    Format::Svg => io::stderr().write_all(line.as_bytes())?,
                    Format::Text | Format::Json => out.write_all(line.as_bytes())?,
                }
                worst = combine(worst, LIMIT);
                continue;
            }
            Err(ReadError::Failed(message, at)) => {
                worst = combine(worst, report_read_error(&label, &message, at, args.format, &mut out)?);
                continue;
            }
        };
        let source = &source;
        let (map, compiled) = compile(source, args.format, (&stop, armed.stop()), &mut out)?;
        // The files a model includes are known once it is read.
        let includes = map.files().iter().skip(1).map(|file| Path::new(&file.label));
        let overwrites = pictures::check_not_an_input(destination, source.path.as_deref().into_iter().chain(includes));
        let code = match compiled {
            Err(code) => code,
            Ok(_) if overwrites.is_err() => {
                out.flush()?;
                writeln!(io::stderr(), "error: {}", overwrites.err().unwrap_or_default())?;
                BAD_INPUT
            }
            Ok(Model::Direct(kind, file)) => {
                let outcome = cpsolve_puzzles::direct::solve(kind, &file, &options);
                armed.searched();
                print_outcome(outcome, source, &map, args, destination, &mut out)?
            }
            Ok(Model::MineFile) => {
                let outcome = cpsolve_puzzles::minesweeper::solve_mine_file(&source.text, &options);
                armed.searched();
                print_outcome(outcome, source, &map, args, destination, &mut out)?
            }
            Ok(Model::Search(compiled)) => solve_one(compiled, source, args, &options, &armed, destination, &mut out)?,
        };
        out.flush()?;
        drop(armed);
        worst = combine(worst, code);
    }
    Ok(worst)
}

fn solve_one(
    compiled: Compiled,
    source: &Source,
    args: &SolveArgs,
    options: &RunOptions,
    armed: &limits::watchdog::Armed,
    destination: &Destination,
    out: &mut impl Write,
) -> io::Result<u8> {
    let mut write_error: Option<io::Error> = None;
    let mut solutions: Vec<String> = Vec::new();
    let mut shown = 0usize;
    let Compiled { file, problem, part, model_id } = compiled;
    let goal = problem.search.objective.map(|(_, sense)| match sense {
        cpsolve_engine::Sense::Minimize => "minimize",
        cpsolve_engine::Sense::Maximize => "maximize",
    });
    if problem.search.objective.is_some() && (args.all || args.count) {
        let flag = if args.all { "--all" } else { "--count" };
        let message = format!(
            "{flag} does not apply to `{}`: it has an objective (`minimize`/`maximize`); \
             --limit N stops after N improving solutions, --first after the first",
            source.label
        );
        return report_unlocated(&source.label, &message, args.format, out);
    }
    let options = &RunOptions { part, ..options.clone() };
    // The first compilation serves the main search; workers compile their own copy, which
    // only a limit can stop (it compiled once).
    let build = || cpsolve_models::compile_with_stop(&file, &options.stop).ok();
    if args.format == Format::Svg {
        if !problem.view.draws() {
            out.flush()?;
            io::stderr().write_all(pictures::no_board(&source.label, problem.kind.name()).as_bytes())?;
            return Ok(BAD_INPUT);
        }
        let drawn = pictures::solve_and_draw(problem, &build, options);
        armed.searched();
        match &drawn.picture {
            Some(picture) => {
                pictures::write(picture, destination, out)?;
                // The caption says it too, but a script reads the status and standard error.
                if drawn.report.status == Status::Limit {
                    out.flush()?;
                    write!(io::stderr(), "{}: {}", source.label, report::summary_text(&drawn.report, options))?;
                }
            }
            None => {
                out.flush()?;
                write!(io::stderr(), "{}: {}", source.label, report::summary_text(&drawn.report, options))?;
            }
        }
        if args.stats {
            out.flush()?;
            write!(io::stderr(), "{}", report::stats_text(&drawn.report.stats))?;
        }
        return Ok(exit_status(drawn.report.status));
    }
    let report = run::solve(problem, &build, options, |view, record| {
        let written = match args.format {
            Format::Json => {
                solutions.push(view.json(record).to_string());
                Ok(())
            }
            Format::Text | Format::Svg => {
                let separator = if shown > 0 { "\n" } else { "" };
                write!(out, "{separator}{}", view.text(record))
            }
        };
        shown += 1;
        match written {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                write_error = Some(e);
                ControlFlow::Break(())
            }
        }
    });
    armed.searched();
    if let Some(e) = write_error {
        return Err(e);
    }
    match args.format {
        Format::Text | Format::Svg => {
            let summary = report::summary_text(&report, options);
            if !summary.is_empty() && shown > 0 && report.mode != SolveMode::First {
                writeln!(out)?;
            }
            write!(out, "{summary}")?;
            if args.stats {
                out.flush()?;
                write!(io::stderr(), "{}", report::stats_text(&report.stats))?;
            }
        }
        Format::Json => {
            let mut object = report::json(&report, &source.label, args.stats);
            if let (Some((index, parts)), Some(id), Value::Object(fields)) = (part, &model_id, &mut object) {
                let mut identity = json!({ "index": index + 1, "of": parts, "model": id });
                if let Some(goal) = goal {
                    identity["objective"] = json!(goal);
                }
                fields.insert("part".into(), identity);
            }
            report::write_with_solutions(out, &object, &solutions)?;
        }
    }
    Ok(exit_status(report.status))
}

fn exit_status(status: Status) -> u8 {
    match status {
        Status::Solved => SOLVED,
        Status::Unsatisfiable => UNSATISFIABLE,
        // The command line shares no bound; nothing found in the tree searched is nearest.
        Status::NoBetter => UNSATISFIABLE,
        Status::Limit => LIMIT,
    }
}

/// A puzzle with its own solver: the same statuses, text and JSON framing as a search.
fn print_outcome(
    outcome: Result<Outcome, Vec<Diagnostic>>,
    source: &Source,
    map: &SourceMap,
    args: &SolveArgs,
    destination: &Destination,
    out: &mut impl Write,
) -> io::Result<u8> {
    let outcome = match outcome {
        Ok(outcome) => outcome,
        Err(diagnostics) => {
            report_errors(source, map, &diagnostics, args.format, out)?;
            return Ok(BAD_INPUT);
        }
    };
    match args.format {
        Format::Svg => match &outcome.picture {
            Some(picture) => {
                pictures::write(picture, destination, out)?;
                if outcome.status == Status::Limit {
                    out.flush()?;
                    for line in outcome.text.lines().filter(|line| line.starts_with("stopped")) {
                        writeln!(io::stderr(), "{}: {line}", source.label)?;
                    }
                }
            }
            None if outcome.status == Status::Unsatisfiable => {
                out.flush()?;
                write!(io::stderr(), "{}: {}", source.label, outcome.text)?;
            }
            None => {
                out.flush()?;
                let kind = outcome.json.get("kind").and_then(Value::as_str).unwrap_or("puzzle");
                io::stderr().write_all(pictures::no_board(&source.label, kind).as_bytes())?;
                return Ok(BAD_INPUT);
            }
        },
        Format::Text => {
            write!(out, "{}", outcome.text)?;
            if args.stats {
                out.flush()?;
                write!(io::stderr(), "{}", report::stats_text(&outcome.stats))?;
            }
        }
        Format::Json => {
            let mut object = serde_json::Map::new();
            object.insert("file".into(), Value::from(source.label.as_str()));
            if let Value::Object(fields) = outcome.json {
                object.extend(fields);
            }
            if args.stats {
                object.insert("stats".into(), report::stats_json(&outcome.stats));
            }
            writeln!(out, "{}", Value::Object(object))?;
        }
    }
    if args.format == Format::Svg && args.stats {
        out.flush()?;
        write!(io::stderr(), "{}", report::stats_text(&outcome.stats))?;
    }
    Ok(exit_status(outcome.status))
}

/// The line `check` prints for a puzzle with its own solver, or its errors.
fn report_check(
    source: &Source,
    map: &SourceMap,
    checked: Result<String, Vec<Diagnostic>>,
    out: &mut impl Write,
) -> io::Result<u8> {
    match checked {
        Ok(what) => {
            writeln!(out, "{}: ok ({what})", source.label)?;
            Ok(SOLVED)
        }
        Err(diagnostics) => {
            report_errors(source, map, &diagnostics, Format::Text, out)?;
            Ok(BAD_INPUT)
        }
    }
}

/// `cpsolve check MODEL…`: parse and compile only.
pub(crate) fn check(paths: &[PathBuf], timeout: Option<f64>) -> io::Result<u8> {
    let mut worst = SOLVED;
    let mut out = io::stdout().lock();
    for input in Input::all(paths, &[]) {
        // Reading, and compiling (it unrolls the model's loops), under the limits.
        let lines = check_stop(&input.label(), timeout);
        let armed = limits::arm(timeout.map(Duration::from_secs_f64), lines.clone());
        let code = match input.read(armed.stop()) {
            Err(ReadError::Failed(message, _)) => report_unlocated(&input.label(), &message, Format::Text, &mut out)?,
            Err(ReadError::Stopped(reason)) => {
                out.write_all(lines.line(Some(reason)).as_bytes())?;
                LIMIT
            }
            Ok(source) => match compile(&source, Format::Text, (&lines, armed.stop()), &mut out)? {
                (_, Err(code)) => code,
                (map, Ok(Model::MineFile)) => {
                    report_check(&source, &map, cpsolve_puzzles::minesweeper::check_mine_file(&source.text), &mut out)?
                }
                (map, Ok(Model::Direct(kind, file))) => {
                    report_check(&source, &map, cpsolve_puzzles::direct::check(kind, &file), &mut out)?
                }
                (_, Ok(Model::Search(Compiled { problem, .. }))) => {
                    writeln!(
                        out,
                        "{}: ok ({}, {})",
                        source.label,
                        report::counted(problem.solver.num_vars() as u64, "variable", "variables"),
                        report::counted(problem.solver.num_propagators() as u64, "propagator", "propagators")
                    )?;
                    SOLVED
                }
            },
        };
        drop(armed);
        worst = combine(worst, code);
    }
    Ok(worst)
}
