//! FlatZinc and MiniZinc files: a `.fzn` is read and solved by the flatzinc crate; a `.mzn`
//! (with its `.dzn` data) is first flattened by the installed `minizinc` against cpsolve's
//! solver library (`mznlib/`, carried in this module as the command line carries it).
//! Solutions are MiniZinc's output variables by name, arrays nested by their index sets,
//! as the command line's JSON gives them.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use cpsolve_dsl::ast::SolveMode;
use cpsolve_dsl::SourceMap;
use cpsolve_engine::StopToken;
use cpsolve_flatzinc::{solution_json, Goal, Options, SearchChoice, Status};
use cpsolve_models::report;
use serde_json::{Map, Value};

use crate::outcome::Ran;
use crate::running::{Ask, Failed, Keep};

/// Solves a FlatZinc text.
pub(crate) fn solve_fzn(label: &str, text: &str, ask: &Ask, stop: &StopToken) -> Result<Ran, Failed> {
    let mut model = match cpsolve_flatzinc::load_with_stop(text, stop) {
        Ok(model) => model,
        Err(_) if stop.requested().is_some() => return Ok(crate::running::stopped_early(label, stop)),
        Err(diagnostic) => return Err(Failed::Model(SourceMap::single(label, text), vec![diagnostic])),
    };
    let optimising = model.goal != Goal::Satisfy;
    let counting = ask.mode == Some(SolveMode::Count);
    let options = Options {
        all: matches!(ask.mode, Some(SolveMode::All | SolveMode::Count)),
        solutions: ask.limit,
        timeout: ask.timeout,
        nodes: ask.nodes,
        final_search: true,
        distinct_outputs: true,
        // As the `cpsolve` command's default: cpsolve's own search where one answer is
        // wanted and it learns, the model's annotation for enumerations.
        search: SearchChoice::Auto,
        ..Options::default()
    };
    let mut solutions: Vec<String> = Vec::new();
    let result = cpsolve_flatzinc::solve(&mut model, &options, |model, found| {
        if counting {
            return;
        }
        if ask.keep != Keep::All {
            solutions.clear();
        }
        solutions.push(solution_json(model, found).to_string());
    });
    let status = match result.status {
        Status::Unsatisfiable => "unsatisfiable",
        Status::Unknown => "limit",
        _ if result.stopped.is_some() => "limit",
        _ => "solved",
    };
    let mut object = Map::new();
    object.insert("file".into(), Value::from(label));
    object.insert("kind".into(), Value::from("minizinc"));
    object.insert("status".into(), Value::from(status));
    if optimising {
        object.insert("optimal".into(), Value::from(result.status == Status::Complete));
    }
    object.insert("count".into(), report::count_json(result.solutions));
    if !counting {
        object.insert("solutions".into(), Value::from(report::SOLUTIONS_HERE));
    }
    if let Some(best) = result.objective {
        object.insert("objective".into(), Value::from(best));
    }
    if let Some(stop) = result.stopped {
        object.insert("stopped".into(), Value::from(crate::outcome::stop_name(stop)));
    }
    object.insert("stats".into(), report::stats_json(&result.stats));
    let mut json = Vec::new();
    let _ = report::write_with_solutions(&mut json, &Value::Object(object), &solutions);
    Ok(Ran {
        status,
        count: result.solutions,
        objective: result.objective,
        optimising,
        stopped: result.stopped,
        stats: result.stats,
        json: String::from_utf8_lossy(&json).trim_end().to_string(),
        ..Ran::default()
    })
}

/// cpsolve's MiniZinc library, as `minizinc` reads it to flatten a model for cpsolve.
const MZNLIB: &[(&str, &str)] = &[
    ("redefinitions.mzn", include_str!("../../mznlib/redefinitions.mzn")),
    ("redefinitions-2.0.mzn", include_str!("../../mznlib/redefinitions-2.0.mzn")),
    ("fzn_all_different_int.mzn", include_str!("../../mznlib/fzn_all_different_int.mzn")),
    ("fzn_table_int.mzn", include_str!("../../mznlib/fzn_table_int.mzn")),
    ("fzn_table_bool.mzn", include_str!("../../mznlib/fzn_table_bool.mzn")),
    ("fzn_cumulative.mzn", include_str!("../../mznlib/fzn_cumulative.mzn")),
    ("fzn_diffn.mzn", include_str!("../../mznlib/fzn_diffn.mzn")),
    ("fzn_diffn_nonstrict.mzn", include_str!("../../mznlib/fzn_diffn_nonstrict.mzn")),
    ("fzn_disjunctive.mzn", include_str!("../../mznlib/fzn_disjunctive.mzn")),
    ("fzn_disjunctive_strict.mzn", include_str!("../../mznlib/fzn_disjunctive_strict.mzn")),
    ("fzn_circuit.mzn", include_str!("../../mznlib/fzn_circuit.mzn")),
    ("fzn_subcircuit.mzn", include_str!("../../mznlib/fzn_subcircuit.mzn")),
    ("fzn_regular.mzn", include_str!("../../mznlib/fzn_regular.mzn")),
    ("fzn_regular_set.mzn", include_str!("../../mznlib/fzn_regular_set.mzn")),
    ("fzn_inverse.mzn", include_str!("../../mznlib/fzn_inverse.mzn")),
    ("fzn_lex_less_int.mzn", include_str!("../../mznlib/fzn_lex_less_int.mzn")),
    ("fzn_lex_lesseq_int.mzn", include_str!("../../mznlib/fzn_lex_lesseq_int.mzn")),
    ("fzn_lex_less_bool.mzn", include_str!("../../mznlib/fzn_lex_less_bool.mzn")),
    ("fzn_lex_lesseq_bool.mzn", include_str!("../../mznlib/fzn_lex_lesseq_bool.mzn")),
    ("fzn_global_cardinality.mzn", include_str!("../../mznlib/fzn_global_cardinality.mzn")),
    ("fzn_global_cardinality_closed.mzn", include_str!("../../mznlib/fzn_global_cardinality_closed.mzn")),
    ("fzn_global_cardinality_low_up.mzn", include_str!("../../mznlib/fzn_global_cardinality_low_up.mzn")),
    ("fzn_global_cardinality_low_up_closed.mzn", include_str!("../../mznlib/fzn_global_cardinality_low_up_closed.mzn")),
];

/// Flattens a `.mzn` model with its data files into FlatZinc text; `Err` says why not.
pub(crate) fn flatten(model: &Path, data: &[PathBuf], stop: &StopToken) -> Result<String, String> {
    let work = Workspace::new()
        .map_err(|e| format!("cannot write cpsolve's MiniZinc library to a temporary directory: {e}"))?;
    let fzn = work.dir.join("model.fzn");
    let child = Command::new("minizinc")
        .arg("--solver")
        .arg(work.dir.join("cpsolve.msc"))
        .arg("-c")
        .arg(model)
        .args(data)
        .arg("--fzn")
        .arg(&fzn)
        .arg("--ozn")
        .arg(work.dir.join("model.ozn"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(
                "`minizinc` is not installed, and a .mzn model needs it to be flattened (or give a .fzn file)".into()
            )
        }
        Err(e) => return Err(format!("cannot run `minizinc`: {e}")),
    };
    let mut stderr = child.stderr.take();
    let said = std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(pipe) = stderr.as_mut() {
            let _ = std::io::Read::read_to_string(pipe, &mut text);
        }
        text
    });
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if stop.requested().is_some() => {
                let _ = child.kill();
                let _ = child.wait();
                return Err("stopped by a limit while `minizinc` was flattening the model".into());
            }
            Ok(None) => std::thread::sleep(std::time::Duration::from_millis(5)),
            Err(e) => return Err(format!("cannot wait for `minizinc`: {e}")),
        }
    };
    let said = said.join().unwrap_or_default();
    if !status.success() {
        return Err(format!("`minizinc` could not flatten the model:\n{}", said.trim_end()));
    }
    std::fs::read_to_string(&fzn).map_err(|e| format!("cannot read the flattened model: {e}"))
}

/// A temporary directory holding the solver library and configuration, removed on drop.
struct Workspace {
    dir: PathBuf,
}

impl Workspace {
    fn new() -> std::io::Result<Workspace> {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("cpsolve-py-mzn-{}-{n}", std::process::id()));
        let lib = dir.join("mznlib");
        std::fs::create_dir_all(&lib)?;
        for (name, text) in MZNLIB {
            std::fs::write(lib.join(name), text)?;
        }
        // Only flattening (`-c`) is asked of MiniZinc: the executable is never run.
        let msc = serde_json::json!({
            "id": "org.cpsolve.cpsolve",
            "name": "cpsolve",
            "version": env!("CARGO_PKG_VERSION"),
            "mznlib": lib,
            "executable": "fzn-cpsolve",
            "tags": ["cp", "int"],
            "supportsMzn": false,
            "supportsFzn": true,
        });
        std::fs::write(dir.join("cpsolve.msc"), msc.to_string())?;
        Ok(Workspace { dir })
    }
}

impl Drop for Workspace {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
