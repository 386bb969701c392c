//! Where each item of a `.fzn` text starts, and what the parser does not keep.
//!
//! A FlatZinc model is a sequence of items, each ended by `;`: predicate declarations,
//! parameter and variable declarations, constraints, one solve item. The parser
//! (`flatzinc-serde`) gives back the items without positions, and drops the index sets of
//! `output_array` annotations. This scanner walks the text once, splitting it at the `;`
//! that end items (not those inside strings or `%` comments), and keeps, for each item, its
//! byte range, its kind, the name it declares and, for output arrays, their index sets.
//! Errors then point at the item they are about (the `k`-th constraint of the parsed model
//! is the `k`-th constraint item here), and two-dimensional output arrays print as
//! `array2d(...)`, as MiniZinc's output processing expects.

use std::collections::HashMap;
use std::ops::Range;

/// What an item is, from its first word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ItemKind {
    Predicate,
    /// A variable or parameter declaration (`var ...` or `int: ...`, `bool: ...`).
    Declaration,
    Array,
    Constraint,
    Solve,
    Other,
}

#[derive(Debug, Clone)]
pub(crate) struct Item {
    pub(crate) kind: ItemKind,
    /// The item's text, from its first word to its `;` (excluded).
    pub(crate) span: Range<usize>,
    /// The declared name (declarations and arrays).
    pub(crate) name: Option<String>,
    /// An array's declared index set (`array [1..3] of ...` gives `(1, 3)`) and where it is
    /// written: the parser drops it, and a literal of another length must be refused.
    pub(crate) index_set: Option<((i64, i64), Range<usize>)>,
}

/// The items of a `.fzn` text, in order.
#[derive(Debug, Clone, Default)]
pub struct SourceIndex {
    pub(crate) items: Vec<Item>,
    /// The index sets of each output array, by name: `[1..2,1..3]` gives `[(1, 2), (1, 3)]`.
    pub(crate) output_dims: HashMap<String, Vec<(i64, i64)>>,
    constraint_items: Vec<usize>,
    /// The first item declaring each name: the compiler asks for every variable's
    /// declaration, and a search through the items per variable was quadratic.
    declared: HashMap<String, usize>,
}

impl SourceIndex {
    pub fn scan(text: &str) -> SourceIndex {
        let mut index = SourceIndex::default();
        let bytes = text.as_bytes();
        let mut start: Option<usize> = None;
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'%' => {
                    while i < bytes.len() && bytes[i] != b'\n' {
                        i += 1;
                    }
                    continue;
                }
                b'"' => {
                    start.get_or_insert(i);
                    i += 1;
                    while i < bytes.len() && bytes[i] != b'"' {
                        i += if bytes[i] == b'\\' { 2 } else { 1 };
                    }
                }
                b';' => {
                    if let Some(s) = start.take() {
                        index.push(text, s..i);
                    }
                }
                b if b.is_ascii_whitespace() => {}
                _ => {
                    start.get_or_insert(i);
                }
            }
            i += 1;
        }
        if let Some(s) = start {
            index.push(text, s..text.len());
        }
        index
    }

    fn push(&mut self, text: &str, span: Range<usize>) {
        let item_text = &text[span.clone()];
        let first = item_text.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').next().unwrap_or("");
        let kind = match first {
            "predicate" => ItemKind::Predicate,
            "var" | "int" | "bool" | "float" | "set" => ItemKind::Declaration,
            "array" => ItemKind::Array,
            "constraint" => ItemKind::Constraint,
            "solve" => ItemKind::Solve,
            _ => ItemKind::Other,
        };
        let name = matches!(kind, ItemKind::Declaration | ItemKind::Array).then(|| declared_name(item_text)).flatten();
        if kind == ItemKind::Array {
            if let (Some(name), Some(dims)) = (&name, output_array_dims(item_text)) {
                self.output_dims.insert(name.clone(), dims);
            }
        }
        if kind == ItemKind::Constraint {
            self.constraint_items.push(self.items.len());
        }
        if let Some(name) = &name {
            self.declared.entry(name.clone()).or_insert(self.items.len());
        }
        let index_set = if kind == ItemKind::Array { array_index_set(item_text, span.start) } else { None };
        self.items.push(Item { kind, span, name, index_set });
    }

    /// The span of the `k`-th constraint item.
    pub(crate) fn constraint_span(&self, k: usize) -> Option<Range<usize>> {
        self.constraint_items.get(k).map(|&i| self.items[i].span.clone())
    }

    /// The span of the declaration of `name` (a variable or an array).
    pub(crate) fn declaration_span(&self, name: &str) -> Option<Range<usize>> {
        self.declared.get(name).map(|&i| self.items[i].span.clone())
    }

    /// The arrays declared with an index set: name, `(lo, hi)` and the span of `[lo..hi]`.
    pub(crate) fn array_index_sets(&self) -> impl Iterator<Item = (&str, (i64, i64), Range<usize>)> {
        self.items.iter().filter_map(|item| {
            let (set, span) = item.index_set.clone()?;
            Some((item.name.as_deref()?, set, span))
        })
    }

    /// The span of the solve item.
    pub(crate) fn solve_span(&self) -> Option<Range<usize>> {
        self.items.iter().find(|item| item.kind == ItemKind::Solve).map(|item| item.span.clone())
    }
}

/// The identifier after the first `:` that is not part of a `::` annotation, outside brackets.
fn declared_name(item: &str) -> Option<String> {
    let bytes = item.as_bytes();
    let mut depth = 0i32;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'[' | b'(' | b'{' => depth += 1,
            b']' | b')' | b'}' => depth -= 1,
            b':' if depth == 0 => {
                if bytes.get(i + 1) == Some(&b':') {
                    return None;
                }
                let rest = item[i + 1..].trim_start();
                let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                return (!name.is_empty()).then_some(name);
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The index set of `array [lo..hi] of ...` (an item that starts at `base`) and its span.
fn array_index_set(item: &str, base: usize) -> Option<((i64, i64), Range<usize>)> {
    let open = item.find('[')?;
    let close = item[open..].find(']')? + open;
    let (lo, hi) = item[open + 1..close].split_once("..")?;
    Some(((lo.trim().parse().ok()?, hi.trim().parse().ok()?), base + open..base + close + 1))
}

/// The index sets of an `output_array([a..b, c..d])` annotation.
fn output_array_dims(item: &str) -> Option<Vec<(i64, i64)>> {
    let at = item.find("output_array")?;
    let rest = &item[at + "output_array".len()..];
    let open = rest.find('[')?;
    let close = rest[open..].find(']')? + open;
    rest[open + 1..close]
        .split(',')
        .map(|range| {
            let (lo, hi) = range.trim().split_once("..")?;
            Some((lo.trim().parse().ok()?, hi.trim().parse().ok()?))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_kinds_names_and_output_dims() {
        let text = "% a comment; with a semicolon\npredicate p(var int: x);\nvar 1..3: x :: output_var;\n\
                    array [1..4] of var int: a :: output_array([1..2, 0..1]) = [x,x,x,x];\n\
                    constraint int_le(x, 2);\nconstraint p(x) :: \"a;b\";\nsolve satisfy;\n";
        let index = SourceIndex::scan(text);
        let kinds: Vec<ItemKind> = index.items.iter().map(|i| i.kind).collect();
        assert_eq!(
            kinds,
            [
                ItemKind::Predicate,
                ItemKind::Declaration,
                ItemKind::Array,
                ItemKind::Constraint,
                ItemKind::Constraint,
                ItemKind::Solve
            ]
        );
        assert_eq!(index.items[1].name.as_deref(), Some("x"));
        assert_eq!(index.items[2].name.as_deref(), Some("a"));
        assert_eq!(index.output_dims["a"], vec![(1, 2), (0, 1)]);
        let sets: Vec<_> = index.array_index_sets().map(|(name, set, span)| (name, set, &text[span])).collect();
        assert_eq!(sets, [("a", (1, 4), "[1..4]")]);
        assert_eq!(&text[index.constraint_span(1).unwrap()], "constraint p(x) :: \"a;b\"");
        assert_eq!(&text[index.declaration_span("x").unwrap()], "var 1..3: x :: output_var");
    }
}
