//! `cpsolve split`: solving one model on many machines.
//!
//! `split` writes K copies of a model, each ending in `option part = i, K`. Run on its own,
//! part i searches only its slice of the search tree: the tree is cut into many subtrees
//! in depth-first order (the same cut on every machine, for the same model and options),
//! and the slices are contiguous runs of them. An optimisation model's part runs branch
//! and bound over its slice and reports the best solution of it. A part's JSON result
//! names the part and the model ([`model_id`]), so that [`crate::merge`] can tell a
//! complete set of parts from a set with a part missing, repeated or from another model.

use std::io::{self, Write};
use std::path::Path;

use crate::includes;
use crate::solve::Source;
use cpsolve_dsl::Parsed;

/// Writes the parts; returns the exit status.
pub(crate) fn split(model: &Path, parts: u64, out: &Path) -> io::Result<u8> {
    let text = match std::fs::read_to_string(model) {
        Ok(text) => text,
        Err(e) => {
            writeln!(io::stderr(), "error: cannot read `{}`: {e}", model.display())?;
            return Ok(2);
        }
    };
    let source = Source { label: model.display().to_string(), text, path: Some(model.to_path_buf()) };
    let Parsed { map, file } = includes::parse(&source);
    let file = match file.and_then(|file| {
        if cpsolve_models::part(&file)?.is_some() {
            let at = map.text().find("option part").unwrap_or(0);
            return Err(vec![cpsolve_dsl::Diagnostic::new("this model is already a part of a split", at..at + 11)]);
        }
        cpsolve_models::compile(&file).map(|_| file)
    }) {
        Ok(file) => file,
        Err(diagnostics) => {
            let color = std::io::IsTerminal::is_terminal(&io::stderr());
            io::stderr().write_all(cpsolve_dsl::render_map(&map, &diagnostics, color).as_bytes())?;
            return Ok(2);
        }
    };
    drop(file);
    std::fs::create_dir_all(out)?;
    let stem = model.file_stem().map_or("model".into(), |s| s.to_string_lossy().to_string());
    let width = parts.to_string().len();
    let mut stdout = io::stdout().lock();
    for i in 1..=parts {
        let path = out.join(format!("{stem}-part-{i:0width$}-of-{parts}.puz"));
        // The included files inlined: a part runs where they are not.
        let mut body = map.inlined();
        if !body.ends_with('\n') {
            body.push('\n');
        }
        body.push_str(&format!("# part {i} of {parts}, written by `cpsolve split`\noption part = {i}, {parts}\n"));
        std::fs::write(&path, body)?;
        writeln!(stdout, "{}", path.display())?;
    }
    Ok(0)
}

/// The identity of a part's model, the same for every part of one split: a hash (64-bit
/// FNV-1a, the same on every machine and build) of the model's text without the lines of
/// its `option part` statements (`part_spans`), comment lines and blank lines, which are
/// all a split changes from part to part.
pub(crate) fn model_id(text: &str, part_spans: &[cpsolve_dsl::ast::Span]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let span = at..at + line.len();
        at += line.len();
        let is_part = part_spans.iter().any(|p| p.start < span.end && span.start < p.end.max(p.start + 1));
        let trimmed = line.trim();
        if is_part || trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        for byte in trimmed.bytes().chain(std::iter::once(b'\n')) {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{hash:016x}")
}
