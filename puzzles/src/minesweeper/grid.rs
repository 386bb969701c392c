//! Reading a position: the `minesweeper` statement of a `.puz` file, or a JSMinesweeper
//! `.mine` file. Both give a [`Board`]; every error names the cell (its byte span).

use cpsolve_dsl::ast::{File, Item, PuzzleKind, Span};
use cpsolve_dsl::Diagnostic;

use cpsolve_models::params::Params;

/// One cell of a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    Covered,
    /// A flagged cell: a known mine.
    Flag,
    /// A revealed cell showing how many of its neighbours are mines.
    Open(u8),
}

/// A position: cells in row-major order, and the total number of mines (flags included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    pub width: usize,
    pub height: usize,
    pub cells: Vec<Cell>,
    pub mines: Option<usize>,
}

/// Larger boards are refused: the analysis keeps a few vectors per cell, and no real game is larger.
pub const MAX_CELLS: usize = 1 << 20;

impl Board {
    /// The indices of the (up to 8) neighbours of cell `i`.
    pub fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        neighbours(self.width, self.height, i)
    }

    pub fn flags(&self) -> usize {
        self.cells.iter().filter(|c| **c == Cell::Flag).count()
    }

    pub fn covered(&self) -> usize {
        self.cells.iter().filter(|c| **c == Cell::Covered).count()
    }
}

/// The neighbours of cell `i` on a `width`×`height` grid (row-major indices).
pub fn neighbours(width: usize, height: usize, i: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (i / width, i % width);
    (-1isize..=1).flat_map(|dr| (-1isize..=1).map(move |dc| (dr, dc))).filter(|&d| d != (0, 0)).filter_map(
        move |(dr, dc)| {
            let (nr, nc) = (r.checked_add_signed(dr)?, c.checked_add_signed(dc)?);
            (nr < height && nc < width).then_some(nr * width + nc)
        },
    )
}

/// The cells as read, each with its span, before the checks that need the whole grid.
struct Raw {
    rows: Vec<Vec<(Cell, Span)>>,
    mines: Option<(usize, Span)>,
}

/// Reads the `minesweeper` statement of a `.puz` file.
pub fn read_puz(file: &File) -> Result<Board, Vec<Diagnostic>> {
    let mut raw: Option<Raw> = None;
    let mut errors = Vec::new();
    for item in &file.items {
        match &item.node {
            Item::Puzzle { kind, params, rows } if kind.node == PuzzleKind::Minesweeper && raw.is_none() => {
                let mines = match Params::new(params, item.span.clone(), &["mines"]) {
                    Err(e) => {
                        errors.push(e);
                        None
                    }
                    Ok(p) if params.iter().any(|p| p.name.node == "mines") => {
                        let at = params.iter().find(|p| p.name.node == "mines").map(|p| p.value.span.clone());
                        match p.int("mines", 0, MAX_CELLS as i64, None) {
                            Ok(m) => Some((m as usize, at.unwrap_or(item.span.clone()))),
                            Err(e) => {
                                errors.push(e);
                                None
                            }
                        }
                    }
                    Ok(_) => None,
                };
                let mut cells = Vec::new();
                for row in rows {
                    let mut line = Vec::new();
                    for (ch, span) in row.chars() {
                        match cell_of(ch, '.', '?', 'F', '*') {
                            Some(cell) => line.push((cell, span)),
                            None => errors.push(bad_char(ch, span, ". or ? (covered), 0-8, F or * (flag)")),
                        }
                    }
                    cells.push(line);
                }
                if rows.is_empty() {
                    errors.push(
                        Diagnostic::new("the position has no rows", item.span.clone())
                            .with_label("add the grid below the statement"),
                    );
                }
                raw = Some(Raw { rows: cells, mines });
            }
            Item::Solve(_) => {}
            _ => errors.push(
                Diagnostic::new("a minesweeper file holds one `minesweeper` statement", item.span.clone())
                    .with_label("not allowed here")
                    .with_note("besides the statement and its grid, only a `solve` line may appear"),
            ),
        }
    }
    let Some(raw) = raw else {
        errors.push(Diagnostic::new("no `minesweeper` statement", 0..0));
        return Err(errors);
    };
    if !errors.is_empty() {
        return Err(errors);
    }
    finish(raw)
}

/// Reads a JSMinesweeper `.mine` file: a `WxHxM` header, then H rows of W cells
/// (`H` hidden, `F` flag, `0`-`8`).
pub fn read_mine(text: &str) -> Result<Board, Vec<Diagnostic>> {
    let mut lines = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        lines.push((body, offset));
        offset += line.len();
    }
    let mut lines = lines.into_iter().filter(|(l, _)| !l.trim().is_empty());
    let Some((header, header_at)) = lines.next() else {
        return Err(vec![Diagnostic::new("empty `.mine` file", 0..0).with_note("expected a `WxHxM` header")]);
    };
    let header_span = header_at..header_at + header.len();
    let numbers: Vec<Option<usize>> = header.trim().split(['x', 'X']).map(|n| n.trim().parse().ok()).collect();
    let (width, height, mines) = match numbers.as_slice() {
        [Some(w), Some(h), Some(m)] if *w > 0 && *h > 0 && w.saturating_mul(*h) <= MAX_CELLS => (*w, *h, *m),
        _ => {
            return Err(vec![Diagnostic::new("bad `.mine` header", header_span)
                .with_label("expected `WxHxM`, e.g. `30x16x99`")
                .with_note(format!("width × height at most {MAX_CELLS} cells"))])
        }
    };
    let mut rows = Vec::new();
    let mut errors = Vec::new();
    for (line, at) in lines {
        let mut row = Vec::new();
        for (i, ch) in line.char_indices() {
            if ch.is_whitespace() {
                continue;
            }
            let span = at + i..at + i + ch.len_utf8();
            match cell_of(ch, 'H', 'h', 'F', 'f') {
                Some(cell) => row.push((cell, span)),
                None => errors.push(bad_char(ch, span, "H (hidden), F (flag), 0-8")),
            }
        }
        rows.push((row, at..at + line.len()));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    if let Some((row, span)) = rows.iter().find(|(r, _)| r.len() != width) {
        let at = if row.len() > width { row[width].1.clone() } else { span.end..span.end };
        return Err(vec![Diagnostic::new(format!("a row of {} cells, the header says {width}", row.len()), at)
            .with_label(if row.len() > width { "one cell too many from here" } else { "cells missing here" })]);
    }
    if rows.len() != height {
        let span = rows.get(height).map_or(text.len()..text.len(), |(_, s)| s.clone());
        return Err(vec![Diagnostic::new(format!("{} rows, the header says {height}", rows.len()), span)
            .with_label(if rows.len() > height { "a row too many" } else { "rows missing" })]);
    }
    finish(Raw { rows: rows.into_iter().map(|(r, _)| r).collect(), mines: Some((mines, header_span)) })
}

fn cell_of(ch: char, covered: char, covered2: char, flag: char, flag2: char) -> Option<Cell> {
    match ch {
        '0'..='8' => Some(Cell::Open(ch as u8 - b'0')),
        c if c == covered || c == covered2 => Some(Cell::Covered),
        c if c == flag || c == flag2 => Some(Cell::Flag),
        _ => None,
    }
}

fn bad_char(ch: char, span: Span, expected: &str) -> Diagnostic {
    if ch == '9' {
        Diagnostic::new("`9` is not a count: a cell has at most 8 neighbours", span)
            .with_label("a count is from 0 to 8")
            .with_note(format!("cells are {expected}"))
    } else {
        Diagnostic::new(format!("`{ch}` is not a cell"), span).with_label(format!("expected {expected}"))
    }
}

/// The checks that need the whole grid: rows of one length, counts that fit their
/// neighbourhood and their flags, a total of mines not below the flags.
fn finish(raw: Raw) -> Result<Board, Vec<Diagnostic>> {
    let width = raw.rows.first().map_or(0, Vec::len);
    let height = raw.rows.len();
    let mut errors = Vec::new();
    for row in &raw.rows {
        if row.len() != width {
            let span = match row.get(width) {
                Some((_, s)) => s.clone(),
                None => row.last().map_or(0..0, |(_, s)| s.end..s.end),
            };
            errors.push(
                Diagnostic::new(format!("a row of {} cells; the first row has {width}", row.len()), span)
                    .with_label(if row.len() > width { "one cell too many from here" } else { "cells missing here" })
                    .with_note("every row of the grid has the same number of cells"),
            );
        }
    }
    if width == 0 {
        errors.push(Diagnostic::new("the grid is empty", 0..0));
    }
    if width.saturating_mul(height) > MAX_CELLS {
        errors.push(Diagnostic::new(format!("the grid has more than {MAX_CELLS} cells"), 0..0));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let cells: Vec<Cell> = raw.rows.iter().flatten().map(|(c, _)| *c).collect();
    let spans: Vec<&Span> = raw.rows.iter().flatten().map(|(_, s)| s).collect();
    let board = Board { width, height, cells, mines: raw.mines.as_ref().map(|(m, _)| *m) };
    for (i, cell) in board.cells.iter().enumerate() {
        let Cell::Open(n) = *cell else { continue };
        let around = board.neighbours(i).count();
        let flags = board.neighbours(i).filter(|&j| board.cells[j] == Cell::Flag).count();
        if usize::from(n) > around {
            errors.push(
                Diagnostic::new(format!("`{n}` on a cell with only {around} neighbours"), spans[i].clone())
                    .with_label("more mines than neighbours"),
            );
        } else if flags > usize::from(n) {
            errors.push(
                Diagnostic::new(format!("`{n}` has {flags} flags around it"), spans[i].clone())
                    .with_label(format!("at most {n} of its neighbours are mines")),
            );
        }
    }
    if let Some((mines, span)) = &raw.mines {
        let flags = board.flags();
        if *mines < flags {
            errors.push(
                Diagnostic::new(format!("`mines = {mines}`, but the grid has {flags} flags"), span.clone())
                    .with_label("fewer mines than flags")
                    .with_note("`mines` counts every mine on the board, flags included"),
            );
        }
    }
    if errors.is_empty() {
        Ok(board)
    } else {
        Err(errors)
    }
}
