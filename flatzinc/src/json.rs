//! A FlatZinc solution as JSON, the shape the `cpsolve` command and the Python package
//! both give: each output variable under its name, a Boolean as `true`/`false`, an array
//! nested by its index sets (a 2-d output is a list of rows).

use serde_json::{Map, Value};

use crate::model::{Kind, Model};
use crate::run::Found;

/// One solution of `model`: each output variable under its name.
pub fn solution_json(model: &Model, found: &Found) -> Value {
    let mut object = Map::new();
    for (output, values) in model.outputs.iter().zip(&found.values) {
        let value = match &output.dims {
            None => value_json(output.kind, values[0]),
            Some(dims) => nest(output.kind, dims, values),
        };
        object.insert(output.name.clone(), value);
    }
    Value::Object(object)
}

fn value_json(kind: Kind, v: i64) -> Value {
    match kind {
        Kind::Bool => Value::from(v != 0),
        Kind::Int => Value::from(v),
    }
}

fn nest(kind: Kind, dims: &[(i64, i64)], values: &[i64]) -> Value {
    match dims {
        [] | [_] => Value::Array(values.iter().map(|&v| value_json(kind, v)).collect()),
        [first, rest @ ..] => {
            let rows = (first.1 - first.0 + 1).max(1) as usize;
            let width = values.len() / rows;
            Value::Array(values.chunks(width.max(1)).map(|chunk| nest(kind, rest, chunk)).collect())
        }
    }
}
