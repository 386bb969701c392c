//! `cpsolve explain MODEL`: how the model's solution follows from its givens, step by
//! step, then the solution as solving prints it.

use std::io::{self, Write};
use std::ops::ControlFlow;
use std::time::Duration;

use cpsolve_dsl::ast::SolveMode;
use cpsolve_dsl::{Parsed, SourceMap};
use cpsolve_models::explain::{self, ToldEnding};
use cpsolve_models::report;
use cpsolve_models::run::{self, RunOptions};
use cpsolve_puzzles::direct::Direct;
use cpsolve_puzzles::outcome::Outcome;
use serde_json::{json, Value};

use crate::cli::{ExplainArgs, ReportFormat};
use crate::includes;
use crate::limits;
use crate::reading::{Input, ReadError};
use crate::solve::{self, Source, BAD_INPUT, LIMIT, SOLVED, UNSATISFIABLE};

/// Runs `cpsolve explain`.
pub(crate) fn explain(args: &ExplainArgs) -> io::Result<u8> {
    let format = solve_format(args.format);
    let input = match (&args.inline, &args.model) {
        (Some(text), _) => Input::Inline(text.clone()),
        (None, Some(path)) => Input::File(path.clone()),
        (None, None) => {
            writeln!(io::stderr(), "error: no model given (a file, `-` for standard input, or -e 'MODEL')")?;
            return Ok(BAD_INPUT);
        }
    };
    let label = input.label();
    // Refusals are about this model: in JSON, its error object.
    let refuse = |message: &str| solve::report_unlocated(&label, message, format, &mut io::stdout().lock());
    // FlatZinc and MiniZinc are not `.puz`: read as one, they would give syntax errors that
    // tell nothing about the real fault.
    if [".fzn", ".mzn", ".dzn"].iter().any(|extension| label.ends_with(extension)) {
        return refuse(&format!(
            "`{label}`: explain tells .puz models and .mine positions; it cannot explain a MiniZinc or FlatZinc model"
        ));
    }
    let stop = limits::stop_lines(args.timeout, |why: &str, name: &str| match args.format {
        ReportFormat::Text => format!("stopped: {why}\n"),
        // The shape of every explanation (`steps`, `ending`), with the limit named.
        ReportFormat::Json => {
            format!(
                "{}\n",
                json!({ "file": label, "status": "limit", "stopped": name, "steps": [], "ending": "stopped" })
            )
        }
    });
    let timeout = args.timeout.map(Duration::from_secs_f64);
    // Reading counts against the limits too.
    let armed = limits::arm(timeout, stop.clone());
    let mut out = io::BufWriter::new(io::stdout().lock());
    let source = match input.read(armed.stop()) {
        Ok(source) => source,
        Err(ReadError::Stopped(reason)) => {
            out.write_all(stop.line(Some(reason)).as_bytes())?;
            return Ok(LIMIT);
        }
        Err(ReadError::Failed(message, _)) => return refuse(&message),
    };
    let mine_options = RunOptions {
        timeout,
        memory_mb: limits::memory::limit_mb(),
        stop: armed.stop().clone(),
        ..RunOptions::default()
    };
    if solve::is_mine_file(&source) {
        let outcome = cpsolve_puzzles::minesweeper::explain_mine_file(&source.text, &mine_options, args.chain);
        armed.searched();
        let map = SourceMap::single(source.label.as_str(), &source.text);
        return print_outcome(outcome, &source, &map, args.format, &mut out);
    }
    let Parsed { map, file } = includes::parse(&source);
    let file = match file {
        Ok(file) => file,
        Err(diagnostics) => {
            solve::report_errors(&source, &map, &diagnostics, solve_format(args.format), &mut out)?;
            return Ok(BAD_INPUT);
        }
    };
    match cpsolve_puzzles::direct::direct_kind(&file) {
        Some(Direct::Minesweeper) => {
            let outcome = cpsolve_puzzles::minesweeper::explain_puz(&file, &mine_options, args.chain);
            armed.searched();
            return print_outcome(outcome, &source, &map, args.format, &mut out);
        }
        Some(kind) => {
            let name = if kind == Direct::Compte { "Compte est Bon" } else { "Number Match" };
            return refuse(&format!("`{}`: explain does not know how to tell a {name} puzzle yet", source.label));
        }
        None => {}
    }
    let compiled = cpsolve_models::compile_to_explain(&file, armed.stop());
    let problem = match compiled {
        Ok(problem) => problem,
        Err(_) if armed.stop().requested().is_some() => {
            out.write_all(stop.line(armed.stop().requested()).as_bytes())?;
            return Ok(LIMIT);
        }
        Err(diagnostics) => {
            solve::report_errors(&source, &map, &diagnostics, solve_format(args.format), &mut out)?;
            return Ok(BAD_INPUT);
        }
    };
    let kind = problem.kind;
    let told = match explain::explain(problem) {
        Ok(told) => told,
        Err(message) => return refuse(&format!("`{}`: {message}", source.label)),
    };
    // The solutions, as solving prints them, from a fresh compilation.
    let mut texts = Vec::new();
    let mut solutions = Vec::new();
    let report = if told.ending == ToldEnding::Stopped {
        None
    } else if told.ending == ToldEnding::NoSolution {
        // The checked steps proved it: a search would only repeat it, and where the steps
        // count (a permutation's sum) it may not finish.
        Some(run::Report {
            kind,
            status: run::Status::Unsatisfiable,
            mode: SolveMode::First,
            count: 0,
            stopped_by: None,
            objective: None,
            bound: None,
            unsat_reason: None,
            stats: Default::default(),
        })
    } else {
        // One solution: the explanation already says whether there are more.
        let options = RunOptions {
            mode: Some(SolveMode::First),
            timeout,
            memory_mb: limits::memory::limit_mb(),
            stop: armed.stop().clone(),
            ..RunOptions::default()
        };
        let build = || cpsolve_models::compile_with_stop(&file, &options.stop).ok();
        build().map(|problem| {
            run::solve(problem, &build, &options, |view, record| {
                texts.push(view.text(record));
                solutions.push(view.json(record).to_string());
                ControlFlow::Continue(())
            })
        })
    };
    armed.searched();
    let code = match (&told.ending, &report) {
        (ToldEnding::Stopped, _) | (_, None) => LIMIT,
        (_, Some(report)) => match report.status {
            run::Status::Solved => SOLVED,
            run::Status::Unsatisfiable => UNSATISFIABLE,
            // The command line shares no bound; nothing found in the tree searched is nearest.
            run::Status::NoBetter => UNSATISFIABLE,
            run::Status::Limit => LIMIT,
        },
    };
    match args.format {
        ReportFormat::Text => {
            // The model's files laid end to end: every span of the model slices this text.
            write!(out, "{}", told.text(Some(map.text())))?;
            for text in &texts {
                write!(out, "\n{text}")?;
            }
            if let Some(report) = &report {
                let summary = report::summary_text(report, &RunOptions::default());
                if !summary.is_empty() && texts.is_empty() {
                    write!(out, "\n{summary}")?;
                }
            }
        }
        ReportFormat::Json => {
            let mut object = match &report {
                Some(report) => match report::json(report, &source.label, false) {
                    Value::Object(object) => object,
                    _ => unreachable!("a report is a JSON object"),
                },
                // Stopped: which limit, as every stop line names it.
                None => json!({ "file": source.label, "kind": kind.name(), "status": "limit", "stopped": stopped_name(armed.stop().requested()) })
                    .as_object()
                    .cloned()
                    .unwrap_or_default(),
            };
            object.extend(told.json(Some(map.text())));
            report::write_with_solutions(&mut out, &Value::Object(object), &solutions)?;
        }
    }
    out.flush()?;
    Ok(code)
}

/// A Minesweeper explanation, framed as solving frames a puzzle's own answer.
fn print_outcome(
    outcome: Result<Outcome, Vec<cpsolve_dsl::Diagnostic>>,
    source: &Source,
    map: &SourceMap,
    format: ReportFormat,
    out: &mut impl Write,
) -> io::Result<u8> {
    let outcome = match outcome {
        Ok(outcome) => outcome,
        Err(diagnostics) => {
            solve::report_errors(source, map, &diagnostics, solve_format(format), out)?;
            return Ok(BAD_INPUT);
        }
    };
    match format {
        ReportFormat::Text => write!(out, "{}", outcome.text)?,
        ReportFormat::Json => {
            let mut object = serde_json::Map::new();
            object.insert("file".into(), Value::from(source.label.as_str()));
            if let Value::Object(fields) = outcome.json {
                object.extend(fields);
            }
            writeln!(out, "{}", Value::Object(object))?;
        }
    }
    out.flush()?;
    Ok(match outcome.status {
        run::Status::Solved => SOLVED,
        run::Status::Unsatisfiable => UNSATISFIABLE,
        // The command line shares no bound; nothing found in the tree searched is nearest.
        run::Status::NoBetter => UNSATISFIABLE,
        run::Status::Limit => LIMIT,
    })
}

fn solve_format(format: ReportFormat) -> crate::cli::Format {
    match format {
        ReportFormat::Text => crate::cli::Format::Text,
        ReportFormat::Json => crate::cli::Format::Json,
    }
}

/// The JSON name of the limit that stopped an explanation: `"memory"` or `"time"` when the
/// run's limit was reached, `"budget"` when none was and the explanation's own budget (of
/// steps, or of a check's nodes) ran out.
fn stopped_name(reason: Option<cpsolve_engine::Stop>) -> &'static str {
    match reason {
        Some(cpsolve_engine::Stop::Memory) => "memory",
        Some(_) => "time",
        None => "budget",
    }
}
