//! `cpsolve-fuzz`: fuzz cpsolve's parsers and compilers in-process, or its binary whole.
//!
//! See `notes/fuzzing.md` for the targets, the long runs and what to do with a finding.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use clap::Parser;

use cpsolve_fuzz::campaign::{self, InProcess, Input, Judgement, Report};
use cpsolve_fuzz::corpus::{self, Kind};
use cpsolve_fuzz::executor::Limits;
use cpsolve_fuzz::findings::{self, Problem};
use cpsolve_fuzz::{binary, minimise, targets};

/// Fuzz cpsolve: mutate the corpus files and run them through a target, looking for
/// panics, hangs, memory blow-ups and (for the binary) bad exits and broken limits.
///
/// Exit status: 0 nothing found, 1 findings, 2 the harness could not run.
#[derive(Debug, Parser)]
#[command(name = "cpsolve-fuzz")]
struct Cli {
    /// What to fuzz: `puz` (parse + compile/check), `mine`, `fzn` (parse + compile) in this
    /// process, or `binary` (the built cpsolve, solving too).
    #[arg(long, value_parser = ["puz", "mine", "fzn", "binary"])]
    target: String,
    /// Total running time.
    #[arg(long, default_value_t = 60.0)]
    seconds: f64,
    /// Seed of the run: the same seed replays the same inputs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Seed files (.puz, .mine, .fzn, searched recursively). Default: the workspace's tests/corpus.
    #[arg(long, value_name = "DIR")]
    corpus: Option<PathBuf>,
    /// Where findings go. Default: the workspace's fuzz/findings/<target>.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Wall-clock budget of one in-process input, in milliseconds; past it, a hang.
    #[arg(long, value_name = "MS", default_value_t = 2000)]
    budget_ms: u64,
    /// Resident memory limit of this process (in-process targets), in MB.
    #[arg(long, value_name = "MB", default_value_t = 2048)]
    memory_mb: u64,
    /// Longest input generated, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = 65536)]
    max_len: usize,
    /// The cpsolve binary (target `binary`). Default: `cpsolve` beside this program, else
    /// the workspace's target/release/cpsolve.
    #[arg(long, value_name = "PATH")]
    cpsolve: Option<PathBuf>,
    /// Binary runs at once (1 or 2).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=2))]
    jobs: u32,
    /// After a fatal finding (a hang or memory, which end the process), start again with
    /// the next seed until the time is spent.
    #[arg(long)]
    keep_going: bool,
    /// Shrink this finding (an input file) to the lines that still trigger it, and write
    /// FILE.min.<ext> beside it.
    #[arg(long, value_name = "FILE")]
    minimise: Option<PathBuf>,
    /// Most candidates tried by --minimise.
    #[arg(long, default_value_t = 3000)]
    max_tests: usize,
    /// In-process targets: do not render the errors as the binary prints them (to fuzz
    /// around a known rendering bug).
    #[arg(long)]
    no_render: bool,
    /// Run one input file once and print its outcome (used by --minimise).
    #[arg(long, value_name = "FILE", hide = true)]
    run_one: Option<PathBuf>,
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("fuzz/ lies in the workspace").to_path_buf()
}

impl Cli {
    fn limits(&self) -> Limits {
        Limits { budget: Duration::from_millis(self.budget_ms), memory: self.memory_mb << 20 }
    }

    /// The in-process target named by `--target`.
    fn target(&self) -> Option<targets::Target> {
        targets::with_rendering(&self.target, !self.no_render)
    }

    fn out(&self) -> PathBuf {
        self.out.clone().unwrap_or_else(|| workspace().join("fuzz").join("findings").join(&self.target))
    }

    fn cpsolve(&self) -> PathBuf {
        if let Some(path) = &self.cpsolve {
            return path.clone();
        }
        let beside = std::env::current_exe().ok().and_then(|e| Some(e.parent()?.join("cpsolve")));
        beside.filter(|p| p.is_file()).unwrap_or_else(|| workspace().join("target").join("release").join("cpsolve"))
    }

    fn binary_config(&self, work: PathBuf) -> Result<binary::Config, String> {
        let cpsolve = self.cpsolve();
        let memory = binary::supports_memory(&cpsolve)
            .map_err(|e| format!("cannot run {}: {e} (build it: cargo build --release)", cpsolve.display()))?;
        if !memory {
            eprintln!("note: {} has no --memory option; peak memory is only a warning", cpsolve.display());
        }
        Ok(binary::Config {
            cpsolve,
            timeout: 1.0,
            memory_mb: memory.then_some(512),
            warn_mb: 512,
            jobs: self.jobs as usize,
            work,
        })
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = if let Some(file) = &cli.run_one {
        run_one(&cli, file)
    } else if let Some(file) = &cli.minimise {
        minimise_file(&cli, file)
    } else if cli.keep_going {
        keep_going(&cli)
    } else {
        fuzz(&cli)
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("cpsolve-fuzz: {message}");
            ExitCode::from(2)
        }
    }
}

/// One campaign.
fn fuzz(cli: &Cli) -> Result<ExitCode, String> {
    let dir = cli.corpus.clone().unwrap_or_else(|| workspace().join("tests").join("corpus"));
    let seeds = corpus::load(&dir).map_err(|e| format!("cannot read the corpus {}: {e}", dir.display()))?;
    let config = campaign::Config {
        duration: Duration::from_secs_f64(cli.seconds),
        seed: cli.seed,
        max_inputs: None,
        out: cli.out(),
        max_len: cli.max_len,
        verbose: true,
    };
    let report = if cli.target == "binary" {
        let work = std::env::temp_dir().join(format!("cpsolve-fuzz-{}", std::process::id()));
        let mut runner = binary::Binary::new(cli.binary_config(work.clone())?);
        let report = campaign::run(&mut runner, &seeds, &config);
        let _ = std::fs::remove_dir_all(&work);
        report
    } else {
        let target = cli.target().expect("clap checked the name");
        let seeds: Vec<_> = seeds.into_iter().filter(|s| s.kind == target.kind).collect();
        if seeds.is_empty() {
            return Err(format!("no .{} seed under {}", target.kind.extension(), dir.display()));
        }
        let mut runner = InProcess::new(target, cli.limits(), &config.out);
        campaign::run(&mut runner, &seeds, &config)
    };
    print!("{}", report.summary());
    print_fatal(&report);
    Ok(if report.findings.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// A hang leaves its thread running: say so, and show the input, since the process
/// exits right after.
fn print_fatal(report: &Report) {
    if !report.fatal {
        return;
    }
    if let Some(found) = report.findings.last() {
        let text = String::from_utf8_lossy(&found.input.bytes);
        let shown: String = text.chars().take(2000).collect();
        println!("fatal input ({} bytes):\n{shown}", found.input.bytes.len());
    }
}

/// Campaigns one after the other, each a child process, until the time is spent: a
/// fatal finding ends a child, not the run.
fn keep_going(cli: &Cli) -> Result<ExitCode, String> {
    let start = Instant::now();
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let (mut runs, mut inputs, mut findings) = (0u64, 0u64, 0u64);
    let mut seed = cli.seed;
    let out = cli.out();
    loop {
        let left = cli.seconds - start.elapsed().as_secs_f64();
        if left < 1.0 {
            break;
        }
        let mut child = Command::new(&exe)
            .args(["--target", &cli.target, "--seconds", &format!("{left:.1}"), "--seed", &seed.to_string()])
            .args(["--budget-ms", &cli.budget_ms.to_string(), "--memory-mb", &cli.memory_mb.to_string()])
            .args(["--max-len", &cli.max_len.to_string(), "--jobs", &cli.jobs.to_string()])
            .arg("--out")
            .arg(&out)
            .args(cli.corpus.iter().flat_map(|c| [Path::new("--corpus"), c.as_path()]))
            .args(cli.cpsolve.iter().flat_map(|c| [Path::new("--cpsolve"), c.as_path()]))
            .args(cli.no_render.then_some("--no-render"))
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", exe.display()))?;
        let pid = child.id();
        for line in BufReader::new(child.stdout.take().expect("piped")).lines().map_while(Result::ok) {
            println!("{line}");
            if let Some(rest) = line.strip_prefix("summary: ") {
                inputs += rest.split(": ").nth(1).and_then(|r| r.split(' ').next()?.parse().ok()).unwrap_or(0);
                findings += rest.split(", ").find_map(|p| p.strip_suffix(" findings")?.parse().ok()).unwrap_or(0);
            }
        }
        let status = child.wait().map_err(|e| e.to_string())?;
        runs += 1;
        if status.code().is_none() {
            findings += 1;
            note_crash(&out, pid, &status.to_string(), cli);
        }
        seed += 1;
    }
    let elapsed = start.elapsed().as_secs_f64();
    println!(
        "keep-going: target {}: {runs} runs, {inputs} inputs in {elapsed:.1} s ({:.0} exec/s), {findings} findings",
        cli.target,
        inputs as f64 / elapsed.max(1e-9)
    );
    Ok(if findings == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// A child that died by a signal left its input in `crash-pid<PID>.<ext>` (see
/// `crash_guard`): give it a finding's name and description.
fn note_crash(out: &Path, pid: u32, status: &str, cli: &Cli) {
    let kind = targets::by_name(&cli.target).map_or(Kind::Puz, |t| t.kind);
    let saved = out.join(format!("crash-pid{pid}.{}", kind.extension()));
    let Ok(input) = std::fs::read(&saved) else {
        println!("FINDING: crash in {}: the run died ({status}) and left no input", cli.target);
        return;
    };
    let problem = Problem {
        kind: findings::Kind::Crash,
        signature: String::from("abort"),
        message: format!("the process died: {status} (its standard error above tells why)"),
        detail: String::new(),
        warning: false,
    };
    if let Ok(path) = findings::save(out, kind.extension(), &cli.target, &problem, &input) {
        let _ = std::fs::remove_file(&saved);
        println!("FINDING: crash in {}: {} (saved to {})", cli.target, problem.message, path.display());
    }
}

/// The outcome line of `--run-one`: what the minimiser compares.
fn outcome_line(judgement: &Judgement) -> String {
    match judgement.problems.iter().find(|p| !p.warning) {
        Some(problem) => format!("outcome: {} {}", problem.kind, problem.signature),
        None => String::from("outcome: ok"),
    }
}

fn run_one(cli: &Cli, file: &Path) -> Result<ExitCode, String> {
    let bytes = std::fs::read(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let target = cli.target().ok_or("--run-one is for the in-process targets")?;
    let out = std::env::temp_dir().join(format!("cpsolve-fuzz-one-{}", std::process::id()));
    let mut runner = InProcess::new(target, cli.limits(), &out);
    let judgement = runner.judge(&bytes);
    println!("{}", outcome_line(&judgement));
    for problem in &judgement.problems {
        println!("message: {}", problem.message);
    }
    let _ = std::fs::remove_dir_all(&out);
    // A hang leaves the worker running: exit without waiting for it.
    std::process::exit(0)
}

/// The outcome of one in-process input, judged in a child process: a hang leaves a
/// stuck thread, which only the end of a process clears.
fn outcome_in_child(cli: &Cli, exe: &Path, file: &Path) -> String {
    let child = Command::new(exe)
        .args(["--target", &cli.target, "--budget-ms", &cli.budget_ms.to_string()])
        .args(["--memory-mb", &cli.memory_mb.to_string()])
        .args(cli.no_render.then_some("--no-render"))
        .arg("--run-one")
        .arg(file)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let Ok(child) = child else { return String::from("outcome: harness error") };
    match child.wait_with_output() {
        Ok(output) if output.status.success() => {
            String::from_utf8_lossy(&output.stdout).lines().next().unwrap_or("outcome: none").to_string()
        }
        // Died: an abort (stack overflow, failed allocation) or a signal.
        Ok(output) => format!("outcome: crash {}", output.status),
        Err(_) => String::from("outcome: harness error"),
    }
}

/// The outcome line of a candidate input, for the minimiser to compare.
type Oracle<'a> = Box<dyn FnMut(&[u8]) -> String + 'a>;

fn minimise_file(cli: &Cli, file: &Path) -> Result<ExitCode, String> {
    let input = std::fs::read(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let kind = Kind::of_path(file).ok_or("the file's extension must be .puz, .mine or .fzn")?;
    let scratch = std::env::temp_dir().join(format!("cpsolve-fuzz-min-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).map_err(|e| e.to_string())?;
    let candidate_path = scratch.join(format!("candidate.{}", kind.extension()));
    let mut outcome: Oracle<'_> = if cli.target == "binary" {
        let config = cli.binary_config(scratch.join("work"))?;
        Box::new(move |bytes: &[u8]| {
            let input = Input { kind, bytes: bytes.to_vec() };
            match binary::run_once(&config, &input, &config.work) {
                Ok(run) => binary_outcome(&binary::judge(&config, &run)),
                Err(e) => format!("outcome: harness error {e}"),
            }
        })
    } else {
        let exe = std::env::current_exe().map_err(|e| e.to_string())?;
        let path = candidate_path.clone();
        Box::new(move |bytes: &[u8]| {
            if std::fs::write(&path, bytes).is_err() {
                return String::from("outcome: harness error");
            }
            outcome_in_child(cli, &exe, &path)
        })
    };
    let wanted = outcome(&input);
    println!("{wanted}");
    if wanted == "outcome: ok" || wanted.contains("harness error") {
        let _ = std::fs::remove_dir_all(&scratch);
        println!("the input does not fail (any more) with target {}: nothing to minimise", cli.target);
        return Ok(ExitCode::from(1));
    }
    let small = minimise::minimise(&input, |candidate| outcome(candidate) == wanted, cli.max_tests);
    let _ = std::fs::remove_dir_all(&scratch);
    let stem = file.file_stem().map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let target = file.with_file_name(format!("{stem}.min.{}", kind.extension()));
    std::fs::write(&target, &small).map_err(|e| format!("cannot write {}: {e}", target.display()))?;
    println!("{} -> {} bytes, written to {}\n---", input.len(), small.len(), target.display());
    println!("{}", String::from_utf8_lossy(&small));
    Ok(ExitCode::SUCCESS)
}

/// What the binary minimiser keeps: the kind of the first finding, and for a panic, an
/// exit status or a signal its signature too (a slow run may change its message).
fn binary_outcome(judgement: &Judgement) -> String {
    match judgement.problems.iter().find(|p| !p.warning) {
        None => String::from("outcome: ok"),
        Some(p) if matches!(p.kind, findings::Kind::Time | findings::Kind::Rss) => format!("outcome: {}", p.kind),
        Some(p) => format!("outcome: {} {}", p.kind, p.signature),
    }
}
