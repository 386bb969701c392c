//! Reading back what MiniZinc's own output printer (`minizinc --ozn-file`) makes of
//! cpsolve's solutions, for a `.mzn` model.
//!
//! cpsolve solves the FlatZinc; only MiniZinc knows the model's names. A set variable is
//! flattened into Booleans, an enum into integers, a variable defined by an expression
//! (`var int: value :: output = sum(x)`) into nothing at all: the output specification
//! (`.ozn`) computes them back from the FlatZinc values. So the JSON of a `.mzn` solution
//! is MiniZinc's: the model is flattened with `--output-mode json`, each solution goes
//! through `minizinc --ozn-file`, and the objects it prints are read here, with two of
//! MiniZinc's JSON forms made plain: a set `{"set": [1, [3, 5]]}` becomes the list of its
//! elements `[1, 3, 4, 5]`, and an enum value `{"e": "Red"}` or `{"c": "X", "e": 2}`
//! becomes the text MiniZinc prints for it, `"Red"` or `"X(2)"`.

use serde_json::{Map, Value};

/// The key under which MiniZinc's JSON (`--output-output-item`) holds the text the model's
/// output item prints.
const OUTPUT_TEXT: &str = "_output";

/// The separator MiniZinc prints after each solution.
const SEPARATOR: &str = "----------";

/// MiniZinc 2.6.4 writes the name of an enum constructor's printing function in two ways
/// in the `.ozn` it produces (`'\0@_toString_…'` where it is called, `'_0@_toString_…'`
/// where it is defined), and then cannot read that file back. Calling it by the name it is
/// defined under makes the file readable; nothing else in an `.ozn` holds that text.
pub(crate) fn repair_ozn(text: &str) -> String {
    text.replace("'\\0@", "'_0@")
}

/// The solutions in MiniZinc's JSON output stream: one object per `----------`, in order.
pub(crate) fn solutions(stream: &str) -> Result<Vec<Value>, String> {
    let mut solutions = Vec::new();
    let mut current = String::new();
    for line in stream.lines() {
        if line == SEPARATOR {
            let value: Value = serde_json::from_str(&current)
                .map_err(|e| format!("MiniZinc printed a solution that is not JSON ({e}): {current}"))?;
            solutions.push(plain(value));
            current.clear();
        } else {
            current.push_str(line);
            current.push('\n');
        }
    }
    Ok(solutions)
}

/// The answers among the solutions, each once, as MiniZinc's text output counts them: two
/// solutions are the same answer when the model's output item prints the same text for them
/// (a variable it does not show does not make an answer), or, for a model without an output
/// item, when all their variables are equal. Each answer is the first solution found that
/// prints it, without the text.
pub(crate) fn distinct_answers(solutions: Vec<Value>) -> Vec<Value> {
    let mut seen = std::collections::HashSet::new();
    let mut answers = Vec::new();
    for mut solution in solutions {
        let text = match solution.as_object_mut().and_then(|fields| fields.shift_remove(OUTPUT_TEXT)) {
            Some(text) => text.to_string(),
            None => solution.to_string(),
        };
        if seen.insert(text) {
            answers.push(solution);
        }
    }
    answers
}

/// One of MiniZinc's JSON values, with sets as lists and enum values as their names.
fn plain(value: Value) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.into_iter().map(plain).collect()),
        Value::Object(fields) => match set_elements(&fields) {
            Some(elements) => Value::Array(elements),
            None => match enum_text(&Value::Object(fields.clone())) {
                Some(text) => Value::String(text),
                None => Value::Object(fields.into_iter().map(|(k, v)| (k, plain(v))).collect::<Map<_, _>>()),
            },
        },
        other => other,
    }
}

/// `{"set": [...]}`: integers, `[lo, hi]` ranges, or enum values.
fn set_elements(fields: &Map<String, Value>) -> Option<Vec<Value>> {
    let Some(Value::Array(items)) = fields.get("set") else { return None };
    if fields.len() != 1 {
        return None;
    }
    let mut elements = Vec::new();
    for item in items {
        match item {
            Value::Array(range) => {
                match (range.first().and_then(Value::as_i64), range.get(1).and_then(Value::as_i64)) {
                    (Some(lo), Some(hi)) if range.len() == 2 => elements.extend((lo..=hi).map(Value::from)),
                    _ => return None,
                }
            }
            other => elements.push(plain(other.clone())),
        }
    }
    Some(elements)
}

/// `{"e": "Red"}` is `Red`; `{"e": 3}` (a value of an anonymous enum) is `3`;
/// `{"c": "X", "e": inner}` is `X(inner)`; `{"c": "X", "i": 2}`, MiniZinc's other form of a
/// constructor's argument, the same.
fn enum_text(value: &Value) -> Option<String> {
    let Value::Object(fields) = value else {
        return match value {
            Value::Number(n) => Some(n.to_string()),
            Value::String(s) => Some(s.clone()),
            _ => None,
        };
    };
    match (fields.get("c"), fields.get("e").or_else(|| fields.get("i"))) {
        (Some(Value::String(constructor)), Some(inner)) if fields.len() == 2 => {
            Some(format!("{constructor}({})", enum_text(inner)?))
        }
        (None, Some(Value::String(name))) if fields.len() == 1 => Some(name.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn sets_become_lists_of_their_elements() {
        assert_eq!(plain(json!({"set": [[2, 4], 7]})), json!([2, 3, 4, 7]));
        assert_eq!(plain(json!({"set": []})), json!([]));
    }

    #[test]
    fn enum_values_become_their_names() {
        assert_eq!(plain(json!({"e": "Red"})), json!("Red"));
        assert_eq!(plain(json!({"c": "X", "e": 2})), json!("X(2)"));
        assert_eq!(plain(json!({"c": "X", "e": {"e": "Red"}})), json!("X(Red)"));
        assert_eq!(plain(json!([{"e": "A"}, {"e": "B"}])), json!(["A", "B"]));
    }

    #[test]
    fn the_stream_splits_at_the_separators() {
        let stream = "{\n  \"x\" : 1\n}\n----------\n{\n  \"x\" : 2\n}\n----------\n";
        assert_eq!(solutions(stream), Ok(vec![json!({"x": 1}), json!({"x": 2})]));
    }

    #[test]
    fn an_answer_is_what_the_output_item_prints() {
        let solutions = vec![
            json!({"grid": [1, 1], "when": [1, 2], "_output": "44"}),
            json!({"grid": [1, 1], "when": [2, 1], "_output": "44"}),
            json!({"grid": [2, 1], "when": [1, 2], "_output": "34"}),
        ];
        let answers = distinct_answers(solutions);
        assert_eq!(answers, vec![json!({"grid": [1, 1], "when": [1, 2]}), json!({"grid": [2, 1], "when": [1, 2]})]);
        assert_eq!(distinct_answers(vec![json!({"x": 1}), json!({"x": 1})]).len(), 1);
    }

    #[test]
    fn the_constructor_call_is_renamed_to_its_definition() {
        let ozn =
            "f = '\\0@_toString__constrId_0_E'(x);\nfunction string : '_0@_toString__constrId_0_E'(int: x) = show(x);";
        assert!(!repair_ozn(ozn).contains("\\0@"));
    }
}
