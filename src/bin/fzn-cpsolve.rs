//! `fzn-cpsolve`: cpsolve as a FlatZinc solver, the executable that MiniZinc runs
//! (`minizinc --solver cpsolve`, see `solvers/cpsolve.msc`).
//!
//! It takes MiniZinc's standard solver flags and prints solutions in the FlatZinc output
//! format: `name = value;` lines and `----------` per solution, then `==========` when the
//! search is complete, `=====UNSATISFIABLE=====` or `=====UNKNOWN=====`.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Parser;
use cpsolve_engine::{ActivityOver, ActivitySearch};
use cpsolve_flatzinc::{format_solution, status_line, Goal, Options, PhaseSaving, SearchChoice, Status};

// The time and memory limits of the `cpsolve` binary, shared.
#[path = "../limits/mod.rs"]
#[allow(dead_code, reason = "shared with `cpsolve`, which uses all of it")]
mod limits;

#[global_allocator]
static ALLOCATOR: limits::memory::Counting = limits::memory::Counting;

/// Solve a FlatZinc model (.fzn text or FlatZinc JSON) with cpsolve.
#[derive(Debug, Parser)]
#[command(name = "fzn-cpsolve", version)]
struct Args {
    /// The FlatZinc model.
    model: PathBuf,
    /// All solutions (satisfaction); optimisation prints every improving solution anyway.
    #[arg(short = 'a', long = "all-solutions")]
    all: bool,
    /// Stop after N solutions.
    #[arg(short = 'n', long = "num-solutions", value_name = "N")]
    solutions: Option<u128>,
    /// Free search: ignore the search annotations and use cpsolve's own.
    #[arg(short = 'f', long = "free-search")]
    free: bool,
    /// Intermediate solutions (always on: each improving solution is printed).
    #[arg(short = 'i', long = "intermediate")]
    _intermediate: bool,
    /// Threads (accepted; cpsolve's FlatZinc search runs on one thread).
    #[arg(short = 'p', long = "parallel", value_name = "N")]
    _threads: Option<u32>,
    /// Random seed (accepted; cpsolve's search is deterministic).
    #[arg(short = 'r', long = "random-seed", value_name = "SEED")]
    _seed: Option<i64>,
    /// Print statistics as `%%%mzn-stat:` lines.
    #[arg(short = 's', long = "statistics")]
    stats: bool,
    /// Time limit in milliseconds (for the whole run, reading included).
    #[arg(short = 't', long = "time-limit", value_name = "MS")]
    time_ms: Option<u64>,
    /// Stop when the heap passes MB megabytes; default: half of the machine's memory.
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u64).range(1..=1 << 40))]
    memory: Option<u64>,
    /// Restart after SCALE × luby(k) failures in run k, where the search learns (dom/wdeg,
    /// or learning from failures) and one solution or an optimum is wanted; 0: never
    /// restart. Default: 100 when learning from failures, else 1000.
    #[arg(long = "restart-scale", value_name = "SCALE")]
    restart_scale: Option<u64>,
    /// In optimisation, decide each variable first to its value in the newest solution:
    /// `own` (the default) in cpsolve's own search only (free search, or no annotation),
    /// `always` in annotated searches too, `never`.
    #[arg(long = "phase-saving", value_name = "WHEN", default_value = "own", value_parser = ["own", "always", "never"])]
    phase_saving: String,
    /// With restarts: at each restart, record the decisions of the refuted subtrees as
    /// nogoods, so that later runs do not search them again (`yes`, the default, or `no`).
    #[arg(long, value_name = "YES|NO", default_value = "yes", value_parser = ["yes", "no"])]
    nogoods: String,
    /// Learn a nogood from every failure (conflict analysis): `auto` (the default: where one
    /// solution or an optimum is wanted, not in enumerations), `yes` or `no`.
    #[arg(long, value_name = "AUTO|YES|NO", default_value = "auto", value_parser = ["auto", "yes", "no"])]
    learning: String,
    /// With learning, which decisions follow activity (what recent
    /// conflicts met most): `auto` (the default: all of them in cpsolve's own search, those
    /// the annotation leaves otherwise), `off`, `rest` (those the annotation leaves),
    /// `alternate` (the annotation and activity take turns between restarts), `only`.
    #[arg(long, value_name = "WHICH", default_value = "auto", value_parser = ["auto", "off", "rest", "alternate", "only"])]
    activity: String,
    /// What decisions by activity rank: `literals` (the default: the bounds and values
    /// recent conflicts met, each decided on its saved side) or `variables` (the variables
    /// they met, each decided to its smallest value).
    #[arg(long, value_name = "WHAT", default_value = "literals", value_parser = ["literals", "variables"])]
    activity_over: String,
    /// With learning by default and a search annotation that does not restart: first try
    /// the annotated search without learning, for as long as it projects to finish soon
    /// (`yes`, the default, or `no`).
    #[arg(long, value_name = "YES|NO", default_value = "yes", value_parser = ["yes", "no"])]
    probe: String,
    /// Whose search decides without `-f`: `model` (the default: the annotation, MiniZinc's
    /// meaning), `free` (as `-f`), or `auto` (free where one solution or an optimum is
    /// wanted and the search learns: `cpsolve model.mzn`'s default, which hands its run here).
    #[arg(long, value_name = "WHOSE", default_value = "model", value_parser = ["model", "free", "auto"])]
    search: String,
}

/// When set, the file where the run writes its outcome as `cpsolve`'s exit status (0
/// solved, 1 unsatisfiable, 3 stopped by a limit): MiniZinc hides it, as every solver's exit
/// status but 0 is an error to MiniZinc. `cpsolve model.mzn` reads it back (src/mzn_handoff.rs).
const OUTCOME_VARIABLE: &str = "CPSOLVE_OUTCOME_FILE";

fn main() -> ExitCode {
    let start = Instant::now();
    let args = Args::parse();
    if let Some(mb) = args.memory.or_else(limits::memory::default_limit_mb) {
        limits::memory::set_limit_mb(mb);
    }
    // A hard stop for time (a phase that polls nothing: reading a huge model, or undoing a
    // deep search) ends the output as a search stopped by a limit after a solution does,
    // with nothing more and exit status 0: the solutions printed stay valid, and with none
    // MiniZinc reports the status as unknown. Exit 3 would make MiniZinc print
    // `=====ERROR=====` instead.
    let armed = limits::arm(
        args.time_ms.map(|ms| Duration::from_millis(ms).saturating_sub(start.elapsed())),
        limits::HardStop { time: String::new(), memory: String::new(), time_exit: 0, later: String::new() },
    );
    match run(&args, start, &armed) {
        Ok(code) => ExitCode::from(code),
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(err) => {
            let _ = writeln!(io::stderr(), "error: {err}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &Args, start: Instant, armed: &limits::watchdog::Armed) -> io::Result<u8> {
    let label = args.model.display().to_string();
    let text = match std::fs::read_to_string(&args.model) {
        Ok(text) => text,
        Err(e) => {
            writeln!(io::stderr(), "error: cannot read `{label}`: {e}")?;
            return Ok(2);
        }
    };
    let mut model = match cpsolve_flatzinc::load_with_stop(&text, armed.stop()) {
        Ok(model) => model,
        // A limit stopped the reading: nothing to print, MiniZinc reports the status unknown.
        Err(_) if armed.stop().requested().is_some() => return Ok(0),
        Err(diagnostic) => {
            let rendered = cpsolve_dsl::render(&label, &text, &[diagnostic], io::stderr().is_terminal());
            io::stderr().write_all(rendered.as_bytes())?;
            return Ok(2);
        }
    };
    for warning in &model.warnings {
        writeln!(io::stderr(), "warning: {warning}")?;
    }
    let timeout = args.time_ms.map(|ms| Duration::from_millis(ms).saturating_sub(start.elapsed()));
    let options = Options {
        all: args.all,
        solutions: args.solutions,
        search: match (args.free, args.search.as_str()) {
            (true, _) | (false, "free") => SearchChoice::Free,
            (false, "auto") => SearchChoice::Auto,
            _ => SearchChoice::Model,
        },
        timeout,
        nodes: None,
        verify: true,
        restart_scale: args.restart_scale,
        phase_saving: match args.phase_saving.as_str() {
            "always" => PhaseSaving::Always,
            "never" => PhaseSaving::Never,
            _ => PhaseSaving::OwnSearch,
        },
        nogoods: args.nogoods == "yes",
        // One model per process: nothing searches it again.
        final_search: true,
        // MiniZinc prints an answer once: `-n N` means N different answers.
        distinct_outputs: true,
        learning: match args.learning.as_str() {
            "yes" => Some(true),
            "no" => Some(false),
            _ => None,
        },
        activity: match args.activity.as_str() {
            "off" => Some(ActivitySearch::Off),
            "rest" => Some(ActivitySearch::Rest),
            "alternate" => Some(ActivitySearch::Alternate),
            "only" => Some(ActivitySearch::Only),
            _ => None,
        },
        activity_over: match args.activity_over.as_str() {
            "variables" => ActivityOver::Variables,
            _ => ActivityOver::Literals,
        },
        probe: args.probe == "yes",
    };
    let optimising = !matches!(model.goal, Goal::Satisfy);
    let mut out = io::stdout().lock();
    let mut failed_write = None;
    let result = cpsolve_flatzinc::solve(&mut model, &options, |model, found| {
        let text = format_solution(&model.outputs, found);
        if let Err(e) = out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
            failed_write.get_or_insert(e);
        }
    });
    armed.searched();
    if let Some(e) = failed_write {
        return Err(e);
    }
    if let Some(line) = status_line(result.status, optimising || args.all || args.solutions.is_some()) {
        writeln!(out, "{line}")?;
    }
    if args.stats {
        let s = &result.stats;
        writeln!(out, "%%%mzn-stat: nodes={}", s.nodes)?;
        writeln!(out, "%%%mzn-stat: failures={}", s.failures)?;
        writeln!(out, "%%%mzn-stat: propagations={}", s.propagations)?;
        writeln!(out, "%%%mzn-stat: solutions={}", result.solutions)?;
        writeln!(out, "%%%mzn-stat: peakDepth={}", s.max_depth)?;
        writeln!(out, "%%%mzn-stat: restarts={}", s.restarts)?;
        writeln!(out, "%%%mzn-stat: nogoods={}", s.nogoods)?;
        writeln!(out, "%%%mzn-stat: learned={}", s.learned)?;
        writeln!(out, "%%%mzn-stat: forgotten={}", s.forgotten)?;
        writeln!(out, "%%%mzn-stat: relearned={}", s.relearned)?;
        writeln!(out, "%%%mzn-stat: learningWork={}", s.learning_work)?;
        writeln!(out, "%%%mzn-stat: probePropagations={}", s.probe_propagations)?;
        writeln!(out, "%%%mzn-stat: nogoodPrunings={}", s.nogood_prunings)?;
        writeln!(out, "%%%mzn-stat: nogoodConflicts={}", s.nogood_conflicts)?;
        writeln!(out, "%%%mzn-stat: variables={}", model.solver.num_vars())?;
        writeln!(out, "%%%mzn-stat: propagators={}", model.solver.num_propagators())?;
        if let Some(objective) = result.objective {
            writeln!(out, "%%%mzn-stat: objective={objective}")?;
        }
        writeln!(out, "%%%mzn-stat: solveTime={:.3}", s.time.as_secs_f64())?;
        writeln!(out, "%%%mzn-stat: time={:.3}", start.elapsed().as_secs_f64())?;
        let posted: Vec<String> = model.posted.iter().map(|(name, n)| format!("{name}:{n}")).collect();
        writeln!(out, "%%%mzn-stat: constraints=\"{}\"", posted.join(" "))?;
        writeln!(out, "%%%mzn-stat-end")?;
    }
    out.flush()?;
    if let Some(path) = std::env::var_os(OUTCOME_VARIABLE) {
        let outcome = match result.status {
            Status::Unsatisfiable => 1,
            Status::Unknown => 3,
            _ if result.stopped.is_some() => 3,
            _ => 0,
        };
        std::fs::write(path, format!("{outcome}\n"))?;
    }
    // The process exits next: the kernel takes its memory back whole, faster than
    // dropping the model piece by piece (its trail may hold a gigabyte).
    std::mem::forget(model);
    Ok(0)
}
