//! `--format svg`: one picture per model, and where each goes (`--out`).
//!
//! Without `--out`, the picture of the one model goes to standard output: several SVG
//! documents in one stream would make no valid file, so several models need `--out DIR`.
//! With `--out PATH` and one model, PATH is the SVG file, or, when it is an existing
//! directory, the directory that gets `<stem>.svg`; with several models PATH is a directory
//! (created if missing) and each model gets `<stem>.svg` (`expr-K.svg` for the K-th `-e`
//! model, `stdin.svg` for `-`). Two models with the same stem are refused before anything
//! is solved rather than overwritten.
//!
//! The picture shows one solution: the first, or the best of an optimisation; a caption
//! says what the text output's closing line says (the count, the optimum, the limit), so a
//! picture never claims more than the run proved. A model with no solution gets no picture
//! (its "no solution" line goes to standard error, exit 1); a kind with no board is an error
//! (exit 2), never an empty picture.

use std::collections::BTreeSet;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use cpsolve_dsl::ast::SolveMode;
use cpsolve_models::picture::Canvas;
use cpsolve_models::report;
use cpsolve_models::run::{self, RunOptions, Status};

use crate::cli::SolveArgs;

/// Where one model's picture is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Destination {
    Stdout,
    File(PathBuf),
}

/// The destination of each model, in command-line order (files first, then `-e` models), or
/// the message of a command line that cannot be honoured.
pub(crate) fn destinations(args: &SolveArgs) -> Result<Vec<Destination>, String> {
    let count = args.models.len() + args.inline.len();
    let Some(out) = &args.out else {
        if count > 1 {
            return Err(format!(
                "--format svg writes one picture per model: with {count} models, give --out DIR \
                 (each model gets DIR/<stem>.svg)"
            ));
        }
        return Ok(vec![Destination::Stdout; count]);
    };
    if count == 1 && !out.is_dir() {
        return Ok(vec![Destination::File(out.clone())]);
    }
    let stems =
        args.models.iter().map(|path| stem_of(path)).chain((1..=args.inline.len()).map(|k| format!("expr-{k}")));
    let mut seen = BTreeSet::new();
    let mut all = Vec::with_capacity(count);
    for stem in stems {
        if !seen.insert(stem.clone()) {
            return Err(format!(
                "two models would both be written to `{}`: give them different file names",
                out.join(format!("{stem}.svg")).display()
            ));
        }
        all.push(Destination::File(out.join(format!("{stem}.svg"))));
    }
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create the directory `{}`: {e}", out.display()))?;
    Ok(all)
}

fn stem_of(path: &Path) -> String {
    if path.as_os_str() == "-" {
        return "stdin".to_string();
    }
    path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "model".to_string())
}

/// With `--format svg`, standard output is the picture or nothing: a redirected
/// `model.svg` must stay a valid file when a limit strikes. Every stop line of an SVG run
/// is written to standard error, but the watchdog's hard stop writes its line to descriptor
/// 1 (it may not allocate or choose), so for the run descriptor 1 is pointed at standard
/// error, and the pictures for standard output go to the copy of it returned here.
pub(crate) fn reserve_stdout() -> io::Result<std::fs::File> {
    use std::os::fd::FromRawFd;
    // SAFETY: `fcntl` duplicates descriptor 1 (close-on-exec) into a new descriptor that
    // nothing else owns, so the `File` may own and close it; `dup2` then only redirects
    // descriptor 1, which Rust's `Stdout` keeps writing to by number.
    unsafe {
        let picture = libc::fcntl(1, libc::F_DUPFD_CLOEXEC, 3);
        if picture < 0 {
            return Err(io::Error::last_os_error());
        }
        let file = std::fs::File::from_raw_fd(picture);
        if libc::dup2(2, 1) < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(file)
    }
}

/// Refuses a picture that would overwrite one of the model's own files (`inputs`: the
/// model and the files it includes), which `--out` may name by mistake.
pub(crate) fn check_not_an_input<'a>(
    destination: &Destination,
    inputs: impl IntoIterator<Item = &'a Path>,
) -> Result<(), String> {
    let Destination::File(path) = destination else { return Ok(()) };
    // A file that does not exist yet is no input; one that does is compared by identity.
    let Ok(target) = std::fs::canonicalize(path) else { return Ok(()) };
    for input in inputs {
        if std::fs::canonicalize(input).is_ok_and(|input| input == target) {
            return Err(format!(
                "--out `{}` names a file of the model (`{}`): the picture would overwrite it; \
                 give another path",
                path.display(),
                input.display()
            ));
        }
    }
    Ok(())
}

/// Writes a finished picture where it belongs.
pub(crate) fn write(picture: &str, destination: &Destination, out: &mut impl Write) -> io::Result<()> {
    match destination {
        Destination::Stdout => out.write_all(picture.as_bytes()),
        Destination::File(path) => std::fs::write(path, picture)
            .map_err(|e| io::Error::new(e.kind(), format!("cannot write `{}`: {e}", path.display()))),
    }
}

/// The message for a model whose kind has no board to draw.
pub(crate) fn no_board(label: &str, kind: &str) -> String {
    format!(
        "error: `{label}` has no board to draw (kind: {kind}): --format svg draws cryptarithms, queens, \
         no-three-in-line, Minesweeper, Number Match, Le Compte est Bon, and generic models with a \
         2-d array or a `given` grid\n"
    )
}

/// What a picture's run found: the picture of the solution shown, and the report.
pub(crate) struct Drawn {
    pub(crate) picture: Option<String>,
    pub(crate) report: run::Report,
}

/// Solves a compiled model that draws, keeping the picture of the solution to show: the
/// first, or the last (best) of an optimisation. A count keeps no solution, so one more
/// search finds the first to draw; the caption gives the count.
pub(crate) fn solve_and_draw(
    problem: cpsolve_models::problem::Problem,
    build: &(dyn Fn() -> Option<cpsolve_models::problem::Problem> + Sync),
    options: &RunOptions,
) -> Drawn {
    let optimising = problem.search.objective.is_some();
    let mode = options.mode.unwrap_or(problem.mode);
    let mut canvas: Option<Canvas> = None;
    if mode == SolveMode::Count && !optimising {
        if let Some(first) = build() {
            let first_only = RunOptions { mode: Some(SolveMode::First), limit: None, ..options.clone() };
            run::solve(first, build, &first_only, |view, record| {
                canvas = view.picture(record);
                ControlFlow::Break(())
            });
        }
    }
    let report = run::solve(problem, build, options, |view, record| {
        if canvas.is_none() || optimising {
            canvas = view.picture(record);
        }
        ControlFlow::Continue(())
    });
    let shown = if optimising { "the best found is shown" } else { "the first is shown" };
    let picture = canvas.filter(|_| report.status != Status::Unsatisfiable).map(|mut canvas| {
        let summary = report::summary_text(&report, options);
        let summary = summary.trim_end();
        let several = (report.count > 1 && !optimising) || report.status == Status::Limit;
        let caption = match (summary.is_empty(), several) {
            (true, _) => None,
            (false, true) => Some(format!("{summary}; {shown}")),
            (false, false) => Some(summary.to_string()),
        };
        if let Some(caption) = caption {
            canvas.caption(&caption);
        }
        canvas.finish()
    });
    Drawn { picture, report }
}
