//! The command line, as docs/cli.md describes it (clap derive; help text from doc comments).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Solve finite-domain constraint models and puzzles written in the .puz language.
///
/// Exit status: 0 solved, 1 proven no solution, 2 bad input, 3 a limit cut the search short.
#[derive(Debug, Parser)]
#[command(name = "cpsolve", version, args_conflicts_with_subcommands = true, arg_required_else_help = true)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Option<Command>,
    #[command(flatten)]
    pub(crate) solve: SolveArgs,
    /// Stop when the heap passes MB megabytes (exit 3, `stopped: memory`); default: half of
    /// the machine's memory.
    #[arg(long, global = true, value_name = "MB", value_parser = clap::value_parser!(u64).range(1..=1 << 40))]
    pub(crate) memory: Option<u64>,
    /// Read no included file: `include` is an error (what `cpsolve serve` runs a posted
    /// model with, so that it reads no file of the server's machine).
    #[arg(long, global = true, hide = true)]
    pub(crate) refuse_includes: bool,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Parse and compile only; report errors.
    Check {
        /// Model files (`-` reads standard input).
        #[arg(required = true)]
        models: Vec<PathBuf>,
        /// Stop checking each model after this many seconds (exit 3): compiling a model
        /// unrolls its loops, which can take long.
        #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
        timeout: Option<f64>,
    },
    /// Tell how the model is solved, step by step: each step names the constraints and
    /// known facts it uses and what they alone imply (checked before it is printed).
    Explain(ExplainArgs),
    /// Serve a local web page (a model editor, its board, its explanation step by step) and
    /// a JSON API: POST /api/solve, /api/explain, /api/picture with the model as the body.
    Serve(crate::serve::ServeArgs),
    /// Write K independent sub-models that partition the search (run them anywhere, then merge).
    Split {
        /// The model to split.
        model: PathBuf,
        /// Number of parts.
        #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
        parts: u64,
        /// Directory for the parts (created if missing).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
    /// Reachability table of a game: `table compte` checks every selection of 6 of the 24
    /// tiles against every target (or, with --tiles, one selection of any tiles).
    Table {
        /// The game: `compte`.
        #[arg(value_parser = ["compte"])]
        game: String,
        /// Targets, as LO..HI.
        #[arg(long, default_value = "101..999", value_parser = crate::table::parse_targets)]
        targets: std::ops::RangeInclusive<u32>,
        /// Worker threads (the result is the same for any number).
        #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
        threads: u32,
        /// Only this selection, e.g. --tiles "100 75 50 25 6 3 9 8".
        #[arg(long, value_name = "TILES")]
        tiles: Option<String>,
        /// Stop after this many seconds (exit 3, `stopped: time limit …`).
        #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
        timeout: Option<f64>,
        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: ReportFormat,
    },
    /// Play many seeded games with cpsolve's own player and report how often it wins.
    Play {
        #[command(subcommand)]
        game: PlayGame,
    },
    /// Add up the JSON results of the parts of a split model.
    Merge {
        /// JSON result files (`cpsolve --format json PART.puz > PART.json`), in part order.
        #[arg(required = true)]
        results: Vec<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: ReportFormat,
    },
}

/// The arguments of `cpsolve explain`.
#[derive(Debug, Args)]
pub(crate) struct ExplainArgs {
    /// The model file (`-` reads standard input).
    #[arg(required_unless_present = "inline")]
    pub(crate) model: Option<PathBuf>,
    /// A model given inline, e.g. -e 'cryptarithm SEND+MORE=MONEY'.
    #[arg(short = 'e', long = "expr", value_name = "MODEL", conflicts_with = "model")]
    pub(crate) inline: Option<String>,
    /// Stop after this many seconds (exit 3).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub(crate) timeout: Option<f64>,
    /// Output format: the steps as text, or one JSON object with `steps` and `solutions`.
    #[arg(long, value_enum, default_value_t)]
    pub(crate) format: ReportFormat,
    /// Minesweeper: a step may use the cells that earlier steps proved (as a person plays),
    /// instead of numbers only.
    #[arg(long)]
    pub(crate) chain: bool,
}

#[derive(Debug, Subcommand)]
pub(crate) enum PlayGame {
    /// Minesweeper games from a random board to a win or a mine.
    Minesweeper(crate::play_minesweeper::PlayArgs),
    /// Number Match games from a random start.
    Numbermatch(crate::play_numbermatch::PlayArgs),
}

/// How the answers to models are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub(crate) enum Format {
    #[default]
    Text,
    /// One JSON object per model file, one per line.
    Json,
    /// One SVG picture per model, for the kinds with a board (standard output, or --out).
    Svg,
}

/// How the reports of `table`, `merge` and `play` are written: they have no board to draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub(crate) enum ReportFormat {
    #[default]
    Text,
    /// One JSON object.
    Json,
}

#[derive(Debug, Args)]
pub(crate) struct SolveArgs {
    /// Model files, solved in turn (`-` reads standard input). A MiniZinc model
    /// (`model.mzn data.dzn ...`, flattened by the installed `minizinc`) or a FlatZinc one
    /// (`model.fzn`) is solved alone.
    pub(crate) models: Vec<PathBuf>,
    /// A model given inline, e.g. -e 'cryptarithm SEND+MORE=MONEY'.
    #[arg(short = 'e', long = "expr", value_name = "MODEL")]
    pub(crate) inline: Vec<String>,
    /// Find one solution (overrides the model's `solve` line).
    #[arg(long, group = "mode")]
    pub(crate) first: bool,
    /// Find every solution.
    #[arg(long, group = "mode")]
    pub(crate) all: bool,
    /// Count the solutions without printing them.
    #[arg(long, group = "mode")]
    pub(crate) count: bool,
    /// Stop after N solutions (exit 3 if there are more).
    #[arg(long, value_name = "N")]
    pub(crate) limit: Option<u128>,
    /// Stop each model after this many seconds (exit 3, with what was found so far).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub(crate) timeout: Option<f64>,
    /// Stop each search after N nodes (exit 3): a limit that is the same on any machine
    /// and load. Subtrees searched apart (--threads, split parts) each have N.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) nodes: Option<u64>,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub(crate) format: Format,
    /// With --format svg: where the pictures go. With one model, PATH is the SVG file (or an
    /// existing directory, which gets `<stem>.svg`); with several, PATH is a directory
    /// (created if missing) and each model gets `<stem>.svg`. Default: standard output, for
    /// one model only.
    #[arg(long, value_name = "PATH")]
    pub(crate) out: Option<PathBuf>,
    /// Print nodes, failures, propagations and time (to standard error in text mode).
    #[arg(long)]
    pub(crate) stats: bool,
    /// Worker threads for parallel search where it applies (counting; Number Match's
    /// exact search, with the same line on any number).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub(crate) threads: u32,
    /// Learn from failures (conflict analysis into nogoods that prune the same failure
    /// elsewhere): `auto` (the default: for MiniZinc and FlatZinc models where one solution
    /// or an optimum is wanted; not for `.puz` models), `yes` or `no`. Answers are the same
    /// either way.
    #[arg(long, value_enum, default_value_t, value_name = "WHEN")]
    pub(crate) learning: Learning,
    /// Whose search decides, for MiniZinc and FlatZinc models: `auto` (the default: where
    /// one solution or an optimum is wanted, the model's annotation as long as it projects to
    /// finish soon, then cpsolve's own search by activity; the annotation for enumerations),
    /// `model` (the annotation, as MiniZinc without `-f`) or `free` (cpsolve's own, as
    /// MiniZinc's `-f`). Answers are the same either way; another optimal or first solution
    /// may be the one shown.
    #[arg(long, value_enum, default_value_t, value_name = "WHOSE")]
    pub(crate) search: Search,
}

/// Whose search decides a MiniZinc or FlatZinc model's branching (`--search`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub(crate) enum Search {
    /// cpsolve's own where one answer is wanted and the search learns, after the annotation
    /// as a probe; the annotation otherwise.
    #[default]
    Auto,
    /// The model's search annotation.
    Model,
    /// cpsolve's own search (MiniZinc's `-f`).
    Free,
}

/// When a search learns from its failures (`--learning`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub(crate) enum Learning {
    /// For MiniZinc, FlatZinc and `.puz` language models where one solution or an optimum
    /// is wanted, the model's own search first while it projects to finish soon.
    #[default]
    Auto,
    Yes,
    No,
}

impl Learning {
    /// `Some(on)` when asked for, `None` to leave it to the model's kind.
    pub(crate) fn asked(self) -> Option<bool> {
        match self {
            Learning::Auto => None,
            Learning::Yes => Some(true),
            Learning::No => Some(false),
        }
    }
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && (0.0..1e9).contains(&s) => Ok(s),
        _ => Err(format!("`{text}` is not a number of seconds")),
    }
}
