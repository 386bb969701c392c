//! The repository is self-contained: nothing it holds points outside it.
//!
//! - No tracked file names a path of the machine it was written on (a home or work
//!   directory, a shared folder beside the checkout): such a path means nothing in another
//!   checkout, and tells readers about a machine they do not have.
//! - Every link of the Markdown files is relative and leads to a file or directory of the
//!   repository, so the documentation reads whole from a checkout, offline.
//! - The MiniZinc solver configuration names its library and executable relative to itself,
//!   inside the repository.
//!
//! "Tracked" is what `git ls-files` lists; without git (a source archive), every file but
//! `target/` and `.git/`.

use std::fs;
use std::path::{Component, Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn tracked_files() -> Vec<PathBuf> {
    let listed = Command::new("git").args(["ls-files", "-z"]).current_dir(repo()).output();
    if let Some(output) = listed.ok().filter(|o| o.status.success()) {
        let names = String::from_utf8(output.stdout).expect("file names are UTF-8");
        return names.split('\0').filter(|n| !n.is_empty()).map(PathBuf::from).collect();
    }
    let mut files = Vec::new();
    walk(&repo(), Path::new(""), &mut files);
    files
}

fn walk(root: &Path, dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(root.join(dir)).expect("a readable directory") {
        let entry = entry.expect("a readable entry");
        let relative = dir.join(entry.file_name());
        if entry.file_type().expect("a file type").is_dir() {
            if relative != Path::new("target") && relative != Path::new(".git") {
                walk(root, &relative, files);
            }
        } else {
            files.push(relative);
        }
    }
}

/// The text of a tracked file, or `None` for a binary one or one deleted but not yet
/// committed.
fn text_of(file: &Path) -> Option<String> {
    fs::read(repo().join(file)).ok().and_then(|bytes| String::from_utf8(bytes).ok())
}

/// Paths that belong to one machine. Spelled in pieces so that this file does not hold them.
fn machine_paths() -> Vec<String> {
    vec![["/wo", "rk/"].concat(), ["../sha", "red"].concat(), ["/ro", "ot/"].concat()]
}

/// Every tracked file containing `needle`, with the first line where it occurs.
fn files_containing(needles: &[String]) -> Vec<String> {
    let mut found = Vec::new();
    for file in tracked_files() {
        let Some(text) = text_of(&file) else { continue };
        for needle in needles {
            if let Some((n, line)) = text.lines().enumerate().find(|(_, l)| l.contains(needle.as_str())) {
                found.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
            }
        }
    }
    found
}

#[test]
fn no_tracked_file_names_a_path_of_this_machine() {
    let mut needles = machine_paths();
    // Wherever the checkout lies, its own absolute path is one of this machine's.
    needles.push(repo().display().to_string());
    let found = files_containing(&needles);
    assert!(found.is_empty(), "paths of a machine in the repository:\n{}", found.join("\n"));
}

#[test]
fn the_search_reads_the_tracked_files() {
    let found = files_containing(&["[workspace]".to_string()]);
    assert!(found.iter().any(|f| f.starts_with("Cargo.toml:")), "{found:?}");
}

/// The targets of the inline links `[text](target)` and images `![alt](target)` of a
/// Markdown text, outside fenced code blocks and code spans, with their line numbers.
fn link_targets(markdown: &str) -> Vec<(usize, String)> {
    let mut targets = Vec::new();
    let mut fenced = false;
    for (n, line) in markdown.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Code spans hold examples of syntax, not links.
        let prose: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            let target = after[..end].split_whitespace().next().unwrap_or("").to_string();
            targets.push((n + 1, target));
            rest = &after[end..];
        }
    }
    targets
}

/// Why `target`, linked from `file`, does not lead inside the repository; `None` if it does.
fn broken(file: &Path, target: &str) -> Option<String> {
    let path = target.split('#').next().unwrap_or("");
    if path.is_empty() {
        return None; // a link to a heading of the same page
    }
    if path.contains("://") || path.starts_with("mailto:") {
        return Some("a link outside the repository".into());
    }
    if path.starts_with('/') {
        return Some("an absolute path".into());
    }
    let mut resolved = PathBuf::new();
    for component in file.parent().unwrap_or(Path::new("")).join(path).components() {
        match component {
            // `pop` steps up as it is tested; nothing to pop is a step above the root.
            Component::ParentDir if !resolved.pop() => return Some("leaves the repository".into()),
            Component::Normal(part) => resolved.push(part),
            _ => {}
        }
    }
    if repo().join(&resolved).exists() {
        None
    } else {
        Some(format!("{} does not exist", resolved.display()))
    }
}

#[test]
fn every_markdown_link_leads_to_a_file_of_the_repository() {
    let mut bad = Vec::new();
    let mut links = 0;
    for file in tracked_files().into_iter().filter(|f| f.extension().is_some_and(|e| e == "md")) {
        let Some(text) = text_of(&file) else { continue };
        for (line, target) in link_targets(&text) {
            links += 1;
            if let Some(why) = broken(&file, &target) {
                bad.push(format!("{}:{line}: ({target}): {why}", file.display()));
            }
        }
    }
    assert!(links >= 20, "the links are found ({links})");
    assert!(bad.is_empty(), "links that do not lead to a file of the repository:\n{}", bad.join("\n"));
}

#[test]
fn the_link_check_reads_links_as_documented() {
    let text = "see [a](docs/cli.md#limits) and ![b](x.png \"t\")\n`[c](not-a-link)`\n```\n[d](e)\n```\n[f](#here)\n";
    let targets: Vec<String> = link_targets(text).into_iter().map(|(_, t)| t).collect();
    assert_eq!(targets, ["docs/cli.md#limits", "x.png", "#here"]);
    let readme = Path::new("README.md");
    assert_eq!(broken(readme, "docs/cli.md#limits"), None);
    assert_eq!(broken(readme, "#here"), None);
    assert!(broken(readme, "docs/no-such-page.md").is_some());
    assert!(broken(readme, "../elsewhere/README.md").is_some());
    assert!(broken(readme, "https://example.org/").is_some());
    assert!(broken(Path::new("docs/README.md"), "../README.md").is_none());
}

#[test]
fn the_minizinc_solver_configuration_points_inside_the_repository() {
    let msc = Path::new("solvers/cpsolve.msc");
    let text = fs::read_to_string(repo().join(msc)).expect("the solver configuration exists");
    let msc_json: serde_json::Value = serde_json::from_str(&text).expect("the solver configuration is JSON");
    let path_of = |key: &str| msc_json[key].as_str().unwrap_or_else(|| panic!("`{key}` is a path")).to_string();
    assert_eq!(broken(msc, &path_of("mznlib")), None, "the library is in the repository");
    // The executable exists only after a build; its place must still be inside.
    let executable = path_of("executable");
    assert!(
        broken(msc, &executable).is_none_or(|why| why.ends_with("does not exist")),
        "the executable `{executable}` is inside the repository"
    );
}
