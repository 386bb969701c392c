//! A fuzzing campaign: generate inputs, run them, keep the interesting ones, report.
//!
//! The loop is the same for every target; what differs is how a batch of inputs is run
//! and judged, behind the [`Runner`] trait (one input at a time in-process, two child
//! processes at a time for the binary).
//!
//! 1. Every seed runs once unmutated: a seed that already misbehaves is a finding, and
//!    the seeds' behaviours are the starting set.
//! 2. Then, until the time is up: pick an input from the pool (the seeds plus every
//!    mutant that showed a new behaviour), mutate it, run it, judge it. A mutant with a
//!    behaviour never seen before joins the pool, so the search drifts towards inputs
//!    that reach new code. The pool is capped; past the cap a new entry replaces a
//!    random earlier mutant (never a seed).
//! 3. A problem is reported once per signature (the first input is saved, plus a few
//!    more as examples); a fatal one (a hang, memory) ends the campaign, because its
//!    thread cannot be stopped.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::corpus::{Kind, Seed};
use crate::executor::{Executor, Limits, Outcome};
use crate::findings::{self, Problem};
use crate::mutate::Mutator;
use crate::rng::Rng;
use crate::targets::Target;
use crate::{crash_guard, findings::Kind as FindingKind};

/// One input: its language and its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    pub kind: Kind,
    pub bytes: Vec<u8>,
}

impl From<&Seed> for Input {
    fn from(seed: &Seed) -> Input {
        Input { kind: seed.kind, bytes: seed.bytes.clone() }
    }
}

/// How one input behaved.
#[derive(Debug, Clone, Default)]
pub struct Judgement {
    /// The behaviour, for the pool: see [`crate::targets::Verdict`].
    pub behaviour: String,
    pub problems: Vec<Problem>,
    /// The runner can take no more inputs (a stuck thread).
    pub fatal: bool,
}

/// Runs inputs of one target and judges them.
pub trait Runner {
    /// The target's name, for reports and file names.
    fn name(&self) -> &str;
    /// How many inputs [`Runner::run`] takes at once (all run concurrently).
    fn batch(&self) -> usize {
        1
    }
    /// Runs the inputs; returns one judgement per input, in order.
    fn run(&mut self, inputs: &[Input]) -> Vec<Judgement>;
}

/// The settings of a campaign.
#[derive(Debug, Clone)]
pub struct Config {
    /// Total running time.
    pub duration: Duration,
    pub seed: u64,
    /// Stop after this many inputs even if time is left (tests).
    pub max_inputs: Option<u64>,
    /// Where findings are written.
    pub out: PathBuf,
    /// The longest input generated.
    pub max_len: usize,
    /// Print each new finding as it is found.
    pub verbose: bool,
}

/// One distinct problem (by signature) and how often it came up.
#[derive(Debug, Clone)]
pub struct Found {
    pub problem: Problem,
    /// The first input that showed it.
    pub input: Input,
    /// Where that input was saved, if it could be.
    pub path: Option<PathBuf>,
    pub count: u64,
}

/// What a campaign did.
#[derive(Debug, Clone)]
pub struct Report {
    pub target: String,
    pub seed: u64,
    pub inputs: u64,
    pub elapsed: Duration,
    /// Distinct behaviours seen.
    pub behaviours: usize,
    pub pool: usize,
    /// Distinct problems that are findings, in the order found.
    pub findings: Vec<Found>,
    /// Distinct warnings.
    pub warnings: Vec<Found>,
    /// Ended early by a fatal finding.
    pub fatal: bool,
}

impl Report {
    pub fn executions_per_second(&self) -> f64 {
        self.inputs as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// The summary printed at the end of a run. Its first line is also read by the
    /// `--keep-going` supervisor, so its wording is fixed.
    pub fn summary(&self) -> String {
        let mut text = format!(
            "summary: target {} seed {}: {} inputs in {:.1} s ({:.0} exec/s), {} behaviours, pool {}, {} findings, {} warnings{}\n",
            self.target,
            self.seed,
            self.inputs,
            self.elapsed.as_secs_f64(),
            self.executions_per_second(),
            self.behaviours,
            self.pool,
            self.findings.len(),
            self.warnings.len(),
            if self.fatal { " (stopped by a fatal finding)" } else { "" }
        );
        for (label, list) in [("finding", &self.findings), ("warning", &self.warnings)] {
            for found in list {
                let place = found.path.as_ref().map_or_else(String::new, |p| format!(" -> {}", p.display()));
                text +=
                    &format!("  {label}: {} x{}: {}{place}\n", found.problem.kind, found.count, found.problem.message);
            }
        }
        text
    }
}

/// The most mutants kept in the pool besides the seeds.
const POOL_CAP: usize = 4000;
/// Examples saved per distinct problem, besides the first.
const EXAMPLES: u64 = 2;

/// Runs a campaign of `runner` from `seeds` (mutants keep the language of their seed).
pub fn run(runner: &mut dyn Runner, seeds: &[Seed], config: &Config) -> Report {
    assert!(!seeds.is_empty(), "a campaign needs at least one seed");
    let seeds: Vec<Input> = seeds.iter().map(Input::from).collect();
    let start = Instant::now();
    let mut state = State {
        rng: Rng::new(config.seed),
        max_len: config.max_len,
        pool: seeds.clone(),
        seeds: seeds.len(),
        seen: HashSet::new(),
        found: HashMap::new(),
        report: Report {
            target: runner.name().to_string(),
            seed: config.seed,
            inputs: 0,
            elapsed: Duration::ZERO,
            behaviours: 0,
            pool: 0,
            findings: Vec::new(),
            warnings: Vec::new(),
            fatal: false,
        },
    };
    let time_left = |state: &State| {
        start.elapsed() < config.duration && config.max_inputs.is_none_or(|max| state.report.inputs < max)
    };
    let mut queue = seeds;
    queue.reverse();
    while time_left(&state) && !state.report.fatal {
        let mut batch = Vec::new();
        while batch.len() < runner.batch() {
            batch.push(queue.pop().unwrap_or_else(|| state.mutant()));
        }
        let judgements = runner.run(&batch);
        for (input, judgement) in batch.into_iter().zip(judgements) {
            state.report.inputs += 1;
            state.judge(input, judgement, config);
        }
    }
    state.report.elapsed = start.elapsed();
    state.report.behaviours = state.seen.len();
    state.report.pool = state.pool.len();
    state.report
}

struct State {
    rng: Rng,
    max_len: usize,
    pool: Vec<Input>,
    /// The first `seeds` entries of the pool are the seeds, never replaced.
    seeds: usize,
    seen: HashSet<String>,
    /// Signature → (is a warning, index in the report's list).
    found: HashMap<String, (bool, usize)>,
    report: Report,
}

impl State {
    fn mutant(&mut self) -> Input {
        let base = &self.pool[self.rng.below(self.pool.len())];
        // A donor of the same language: a few draws find one, or the base gives its own.
        let mut donor = base;
        for _ in 0..4 {
            let other = &self.pool[self.rng.below(self.pool.len())];
            if other.kind == base.kind {
                donor = other;
                break;
            }
        }
        let bytes = Mutator::new(base.kind, self.max_len).mutate(&mut self.rng, &base.bytes, &[&donor.bytes]);
        Input { kind: base.kind, bytes }
    }

    fn judge(&mut self, input: Input, judgement: Judgement, config: &Config) {
        self.report.fatal |= judgement.fatal;
        for problem in judgement.problems {
            self.record(problem, &input, config);
        }
        // The seeds run first, in order; past them, a new behaviour earns a place in the pool.
        let is_seed = self.report.inputs <= self.seeds as u64;
        if self.seen.insert(judgement.behaviour) && !is_seed {
            if self.pool.len() - self.seeds < POOL_CAP {
                self.pool.push(input);
            } else {
                let victim = self.seeds + self.rng.below(POOL_CAP);
                self.pool[victim] = input;
            }
        }
    }

    fn record(&mut self, problem: Problem, input: &Input, config: &Config) {
        let key = format!("{}|{}", problem.kind, problem.signature);
        let save = |problem: &Problem| {
            findings::save(&config.out, input.kind.extension(), &self.report.target, problem, &input.bytes)
                .map_err(|e| eprintln!("cpsolve-fuzz: cannot save a finding in {}: {e}", config.out.display()))
                .ok()
        };
        if let Some(&(warning, index)) = self.found.get(&key) {
            let list = if warning { &mut self.report.warnings } else { &mut self.report.findings };
            list[index].count += 1;
            if list[index].count <= 1 + EXAMPLES {
                save(&problem);
            }
            return;
        }
        let path = save(&problem);
        if config.verbose {
            let label = if problem.warning { "warning" } else { "FINDING" };
            let place = path.as_ref().map_or_else(String::new, |p| format!(" (saved to {})", p.display()));
            println!("{label}: {} in {}: {}{place}", problem.kind, self.report.target, problem.message);
        }
        let warning = problem.warning;
        let list = if warning { &mut self.report.warnings } else { &mut self.report.findings };
        list.push(Found { problem, input: input.clone(), path, count: 1 });
        self.found.insert(key, (warning, list.len() - 1));
    }
}

/// The in-process runner: one target on an [`Executor`].
#[derive(Debug)]
pub struct InProcess {
    target: Target,
    executor: Executor,
}

impl InProcess {
    /// A runner for `target`. Its fatal inputs (aborts) are saved under `out`.
    pub fn new(target: Target, limits: Limits, out: &Path) -> InProcess {
        if std::fs::create_dir_all(out).is_ok() {
            let name = format!("crash-pid{}.{}", std::process::id(), target.kind.extension());
            crash_guard::install(&out.join(name));
        }
        let executor = Executor::new(target.run.clone(), limits);
        InProcess { target, executor }
    }

    /// Runs one input and judges it.
    pub fn judge(&mut self, input: &[u8]) -> Judgement {
        match self.executor.run(input) {
            Outcome::Returned(verdict) => Judgement { behaviour: verdict.signature, ..Judgement::default() },
            Outcome::Panicked(report) => {
                let message = format!("panicked at {}: {}", report.location, report.message);
                let problem = Problem {
                    kind: FindingKind::Panic,
                    signature: report.location.clone(),
                    detail: format!("{message}\n\nbacktrace:\n{}", report.backtrace),
                    message,
                    warning: false,
                };
                Judgement { behaviour: format!("panic {}", report.location), problems: vec![problem], fatal: false }
            }
            Outcome::Hung(elapsed) => {
                let message = format!("still running after {:.1} s of CPU time", elapsed.as_secs_f64());
                let problem = Problem {
                    kind: FindingKind::Hang,
                    signature: String::from("hang"),
                    detail: message.clone(),
                    message,
                    warning: false,
                };
                Judgement { behaviour: String::from("hang"), problems: vec![problem], fatal: true }
            }
            Outcome::OverMemory(resident) => {
                let message = format!("resident memory reached {} MB", resident >> 20);
                let problem = Problem {
                    kind: FindingKind::Memory,
                    signature: String::from("memory"),
                    detail: message.clone(),
                    message,
                    warning: false,
                };
                Judgement { behaviour: String::from("memory"), problems: vec![problem], fatal: true }
            }
        }
    }
}

impl Runner for InProcess {
    fn name(&self) -> &str {
        self.target.name
    }

    fn run(&mut self, inputs: &[Input]) -> Vec<Judgement> {
        inputs.iter().map(|input| self.judge(&input.bytes)).collect()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    use super::*;
    use crate::targets::{TargetFn, Verdict};

    fn seeds() -> Vec<Seed> {
        ["let n = 3\nvar x[1..n] in 1..n\nsolve all\n", "queens n = 8\nsolve count\n"]
            .iter()
            .map(|text| Seed { path: PathBuf::from("inline.puz"), kind: Kind::Puz, bytes: text.as_bytes().to_vec() })
            .collect()
    }

    fn config(out: &Path) -> Config {
        Config {
            duration: Duration::from_secs(20),
            seed: 9,
            max_inputs: Some(20_000),
            out: out.to_path_buf(),
            max_len: 4096,
            verbose: false,
        }
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("cpsolve-fuzz-test-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    /// A target broken on purpose: it indexes past the end of an empty list when the input
    /// holds `--` (a mutation must make it), and is fine otherwise.
    #[test]
    fn a_panicking_target_is_found_and_its_input_saved() {
        let run: TargetFn = Arc::new(|text: &str, _: &cpsolve_engine::StopToken| {
            if text.contains("--") {
                let empty: Vec<u8> = Vec::new();
                let _ = empty[text.len()];
            }
            Verdict { accepted: true, signature: String::from("ok") }
        });
        let out = scratch("panic");
        let mut runner = InProcess::new(Target { name: "broken", kind: Kind::Puz, run }, Limits::default(), &out);
        let report = super::run(&mut runner, &seeds(), &config(&out));
        assert_eq!(report.findings.len(), 1, "{}", report.summary());
        let found = &report.findings[0];
        assert_eq!(found.problem.kind, FindingKind::Panic);
        assert!(found.problem.message.contains("index out of bounds"), "{}", found.problem.message);
        assert!(String::from_utf8_lossy(&found.input.bytes).contains("--"));
        let saved = found.path.as_ref().expect("the input is saved");
        assert_eq!(std::fs::read(saved).expect("readable"), found.input.bytes);
        assert!(!report.fatal, "a panic does not stop the campaign");
        assert!(report.inputs == 20_000);
        let _ = std::fs::remove_dir_all(&out);
    }

    /// A target broken on purpose: it never returns on an input that holds `minimize`.
    #[test]
    fn a_looping_target_is_a_hang_that_stops_the_campaign() {
        static RELEASE: AtomicBool = AtomicBool::new(false);
        let run: TargetFn = Arc::new(|text: &str, _: &cpsolve_engine::StopToken| {
            while text.contains("minimize") && !RELEASE.load(Ordering::SeqCst) {
                std::hint::spin_loop();
            }
            Verdict { accepted: true, signature: text.len().to_string() }
        });
        let out = scratch("hang");
        let limits = Limits { budget: Duration::from_millis(300), ..Limits::default() };
        let mut runner = InProcess::new(Target { name: "looping", kind: Kind::Puz, run }, limits, &out);
        let report = super::run(&mut runner, &seeds(), &config(&out));
        RELEASE.store(true, Ordering::SeqCst);
        assert!(report.fatal, "{}", report.summary());
        let found = report.findings.last().expect("a finding");
        assert_eq!(found.problem.kind, FindingKind::Hang);
        assert!(String::from_utf8_lossy(&found.input.bytes).contains("minimize"));
        assert!(found.path.as_ref().is_some_and(|p| p.exists()));
        let _ = std::fs::remove_dir_all(&out);
    }

    #[test]
    fn a_sound_target_gives_no_finding_and_the_same_seed_the_same_run() {
        let run_with = |seed| {
            let out = scratch(&format!("sound-{seed}"));
            let target = crate::targets::by_name("puz").expect("exists");
            let mut runner = InProcess::new(target, Limits::default(), &out);
            let config = Config { seed, max_inputs: Some(300), ..config(&out) };
            let report = super::run(&mut runner, &seeds(), &config);
            let _ = std::fs::remove_dir_all(&out);
            report
        };
        let (a, b) = (run_with(4), run_with(4));
        assert!(a.findings.is_empty(), "{}", a.summary());
        assert_eq!((a.inputs, a.behaviours, a.pool), (b.inputs, b.behaviours, b.pool));
    }
}
