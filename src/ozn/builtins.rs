//! The library functions output specifications call, with MiniZinc's meaning and text:
//! `show` (`[1, 2]`, `1..3`, `{1,3}`, `"a\"b"`), `format`/`show_int` (right-aligned in a
//! positive width, left-aligned in a negative one, never cut), `fix`, aggregates, array
//! reshaping, `join`/`concat`.
//!
//! [`KNOWN`] is checked when a specification is read, so a call of anything else leaves the
//! printing to MiniZinc before the first solution.

use super::eval::{boolean, int, range, set, Value};
use super::syntax::Unsupported;

/// The functions [`call`] evaluates.
pub(crate) const KNOWN: &[&str] = &[
    "show",
    "show_int",
    "format",
    "fix",
    "min",
    "max",
    "sum",
    "product",
    "abs",
    "bool2int",
    "array1d",
    "array2d",
    "array3d",
    "length",
    "card",
    "index_set",
    "index_set_1of2",
    "index_set_2of2",
    "join",
    "concat",
    "forall",
    "exists",
    "string_length",
    "show_indexed",
    "show2d_indexed",
];

fn fail<T>(what: impl Into<String>) -> Result<T, Unsupported> {
    Err(Unsupported(what.into()))
}

pub(crate) fn call(name: &str, args: &[Value]) -> Result<Value, Unsupported> {
    use Value::*;
    Ok(match (name, args) {
        ("show", [v]) => Str(show(v)),
        ("format", [v]) => Str(show(v)),
        ("format", [w, v]) | ("show_int", [w, v @ Int(_)]) => Str(aligned(int(w)?, &show(v))),
        ("fix", [v]) => v.clone(),
        ("bool2int", [Bool(b)]) => Int(*b as i64),
        ("abs", [Int(n)]) => Int(n.checked_abs().ok_or_else(|| Unsupported("an integer overflow".into()))?),
        ("min" | "max", [Int(a), Int(b)]) => Int(if name == "min" { *a.min(b) } else { *a.max(b) }),
        ("min" | "max", [v]) => {
            let items = ints(v)?;
            let found = if name == "min" { items.iter().min() } else { items.iter().max() };
            Int(*found.ok_or_else(|| Unsupported(format!("`{name}` of nothing")))?)
        }
        ("sum", [v]) => Int(ints(v)?.iter().try_fold(0i64, |a, &b| a.checked_add(b)).ok_or_else(overflow)?),
        ("product", [v]) => Int(ints(v)?.iter().try_fold(1i64, |a, &b| a.checked_mul(b)).ok_or_else(overflow)?),
        ("forall" | "exists", [Array(_, items)]) => {
            let values = items.iter().map(boolean).collect::<Result<Vec<_>, _>>()?;
            Bool(if name == "forall" { values.iter().all(|b| *b) } else { values.iter().any(|b| *b) })
        }
        ("length", [Array(_, items)]) => Int(items.len() as i64),
        ("card", [Set(elements)]) => Int(elements.len() as i64),
        ("index_set", [Array(dims, _)]) if dims.len() == 1 => range_set(dims[0]),
        ("index_set_1of2", [Array(dims, _)]) if dims.len() == 2 => range_set(dims[0]),
        ("index_set_2of2", [Array(dims, _)]) if dims.len() == 2 => range_set(dims[1]),
        ("array1d", [Array(_, items)]) => Array(vec![(1, items.len() as i64)], items.clone()),
        ("array1d" | "array2d" | "array3d", args) if args.len() >= 2 => {
            let (sets, array) = args.split_at(args.len() - 1);
            let wanted = match name {
                "array1d" => 1,
                "array2d" => 2,
                _ => 3,
            };
            let Array(_, items) = &array[0] else { return fail(format!("`{name}` of a non-array")) };
            if sets.len() != wanted {
                return fail(format!("`{name}` with {} index sets", sets.len()));
            }
            let dims = sets.iter().map(range).collect::<Result<Vec<_>, _>>()?;
            let size: i64 = dims.iter().map(|(lo, hi)| (hi - lo + 1).max(0)).product();
            if size != items.len() as i64 {
                return fail(format!("`{name}`: {} items for index sets of {size}", items.len()));
            }
            Array(dims, items.clone())
        }
        ("join", [Str(separator), Array(_, items)]) => Str(strings(items)?.join(separator)),
        ("concat", [Array(_, items)]) => Str(strings(items)?.concat()),
        ("string_length", [Str(s)]) => Int(s.chars().count() as i64),
        ("show_indexed", [Array(_, index), Array(_, items)]) if index.len() == items.len() => {
            let pairs: Vec<String> =
                strings(index)?.iter().zip(strings(items)?).map(|(i, x)| format!("{i}: {x}")).collect();
            Str(format!("[{}]", pairs.join(", ")))
        }
        ("show2d_indexed", [Array(_, rows), Array(_, columns), table @ Array(dims, _)]) if dims.len() == 2 => {
            Str(show2d_indexed(&strings(rows)?, &strings(columns)?, table)?)
        }
        _ => return fail(format!("`{name}` of {args:?}")),
    })
}

fn overflow() -> Unsupported {
    Unsupported("an integer overflow".into())
}

fn range_set((lo, hi): (i64, i64)) -> Value {
    set((lo..=hi).collect())
}

fn ints(v: &Value) -> Result<Vec<i64>, Unsupported> {
    match v {
        Value::Array(_, items) => items.iter().map(int).collect(),
        Value::Set(elements) => Ok(elements.clone()),
        other => fail(format!("an aggregate of {other:?}")),
    }
}

fn strings(items: &[Value]) -> Result<Vec<&str>, Unsupported> {
    items
        .iter()
        .map(|v| match v {
            Value::Str(s) => Ok(s.as_str()),
            other => fail(format!("{other:?} where a string should be")),
        })
        .collect()
}

/// MiniZinc's `show2d_indexed` (its standard library, stdlib_string.mzn): the table's
/// columns right-aligned to their widest cell or header, row headers left of `: `.
fn show2d_indexed(rows: &[&str], columns: &[&str], table: &Value) -> Result<String, Unsupported> {
    let Value::Array(dims, cells) = table else { return fail("show2d_indexed of a non-array") };
    let cells = strings(cells)?;
    if cells.is_empty() {
        return Ok("[| |]".into());
    }
    let width = |s: &str| s.chars().count();
    let n_columns = (dims[1].1 - dims[1].0 + 1) as usize;
    let n_rows = cells.len() / n_columns;
    if !columns.is_empty() && columns.len() != n_columns || !rows.is_empty() && rows.len() != n_rows {
        return fail("show2d_indexed with headers of another size than the table");
    }
    let row_width = rows.iter().map(|r| width(r) + 1).max().unwrap_or(0);
    let column_widths: Vec<usize> = (0..n_columns)
        .map(|j| {
            let header = columns.get(j).map_or(0, |c| width(c));
            (0..n_rows).map(|i| width(cells[i * n_columns + j])).max().unwrap_or(0).max(header)
        })
        .collect();
    let mut text = String::new();
    if columns.is_empty() {
        text.push('[');
    } else {
        text.push_str("[|");
        text.push_str(&" ".repeat(if row_width == 0 { 1 } else { row_width + 2 }));
        for (c, w) in columns.iter().zip(&column_widths) {
            text.push_str(&aligned(*w as i64, c));
            text.push_str(": ");
        }
        text.push_str("\n ");
    }
    for i in 0..n_rows {
        text.push_str("| ");
        if let Some(row) = rows.get(i) {
            text.push_str(&aligned(row_width as i64 - 1, row));
            text.push_str(": ");
        }
        let line: Vec<String> =
            (0..n_columns).map(|j| aligned(column_widths[j] as i64, cells[i * n_columns + j])).collect();
        text.push_str(&line.join(", "));
        text.push_str("\n ");
    }
    text.push_str("|]");
    Ok(text)
}

/// `text` padded with spaces to `width` characters: on the left for a positive width, on
/// the right for a negative one; a longer text is kept whole.
fn aligned(width: i64, text: &str) -> String {
    let missing = (width.unsigned_abs() as usize).saturating_sub(text.chars().count());
    let pad = " ".repeat(missing);
    if width >= 0 {
        pad + text
    } else {
        text.to_string() + &pad
    }
}

/// MiniZinc's text of a value.
pub(crate) fn show(v: &Value) -> String {
    match v {
        Value::Int(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Str(s) => {
            let mut quoted = String::from("\"");
            for c in s.chars() {
                match c {
                    '"' => quoted.push_str("\\\""),
                    '\\' => quoted.push_str("\\\\"),
                    '\n' => quoted.push_str("\\n"),
                    '\t' => quoted.push_str("\\t"),
                    c => quoted.push(c),
                }
            }
            quoted.push('"');
            quoted
        }
        Value::Set(e) if !e.is_empty() && e[e.len() - 1] - e[0] + 1 == e.len() as i64 => {
            format!("{}..{}", e[0], e[e.len() - 1])
        }
        Value::Set(e) => format!("{{{}}}", e.iter().map(i64::to_string).collect::<Vec<_>>().join(",")),
        Value::Array(_, items) => format!("[{}]", items.iter().map(show).collect::<Vec<_>>().join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The texts MiniZinc 2.6.4 prints for the same calls (`minizinc` on a model whose
    /// output item makes them).
    #[test]
    fn show_and_format_print_as_minizinc_does() {
        let a = Value::Array(vec![(1, 2), (1, 2)], [1, -2, 3, 4].map(Value::Int).to_vec());
        assert_eq!(show(&a), "[1, -2, 3, 4]");
        assert_eq!(show(&set(vec![3, 1])), "{1,3}");
        assert_eq!(show(&set(vec![1])), "1..1");
        assert_eq!(show(&set(vec![1, 2, 4])), "{1,2,4}");
        assert_eq!(show(&set(vec![])), "{}");
        assert_eq!(show(&Value::Str("a\"b\n\t\\".into())), "\"a\\\"b\\n\\t\\\\\"");
        let format = |w: i64, v: Value| call("format", &[Value::Int(w), v]);
        assert_eq!(format(4, Value::Int(7)), Ok(Value::Str("   7".into())));
        assert_eq!(format(-4, Value::Int(7)), Ok(Value::Str("7   ".into())));
        assert_eq!(format(2, Value::Int(12345)), Ok(Value::Str("12345".into())));
        assert_eq!(format(5, set(vec![1, 2])), Ok(Value::Str(" 1..2".into())));
        assert_eq!(format(-3, Value::Bool(true)), Ok(Value::Str("true".into())));
        assert_eq!(call("show_int", &[Value::Int(-3), Value::Int(5)]), Ok(Value::Str("5  ".into())));
    }
}
