//! Reading a records document back: the TOON table's rows, with flattened columns put back
//! under their paths, merged with each row's JSON sidecar entry.

use serde_json::{Map, Value};

use crate::toon::decode::{DecodeOptions, to_value_with};

use super::error::{HybridError, RecordsError};
use super::names::Specs;
use super::options::RecordsOptions;

/// Decodes a document written by [`encode`](super::encode) in the `Hybrid`, `FlatToon` or
/// `Toon` form back into records.
///
/// Pass the options the document was written with: their indent, section keys, separator
/// and `flatten` paths. Every column name is read back as a path (see the
/// [module docs](super#flattening-and-the-round-trip)), so `metadata_source` becomes
/// `metadata.source` again; each row's sidecar object is then merged in, objects into
/// objects. Keys come in table order, then sidecar order. What comes back exactly, and what
/// not, is listed in the module docs.
///
/// The TOON part is decoded in strict mode. A field given twice (by two columns, or by a
/// column and the sidecar) is [`HybridError::Conflict`]; rows of a `Toon` document that are
/// not objects come back as they are.
pub fn decode_hybrid(text: &str, opts: &RecordsOptions) -> Result<Vec<Value>, HybridError> {
    let specs = Specs::new(&opts.flatten, &opts.separator)
        .and_then(|specs| opts.check().map(|()| specs))
        .map_err(|err| match err {
            RecordsError::InvalidOptions(why) => HybridError::InvalidOptions(why),
            other => HybridError::InvalidOptions(other.to_string()),
        })?;
    let decode_opts = DecodeOptions {
        indent: opts.toon.indent,
        strict: true,
    };
    let Value::Object(mut root) = to_value_with(text, &decode_opts)? else {
        return Err(not_records("the document is not an object"));
    };
    let rows = match root.remove(&opts.rows_key) {
        Some(Value::Array(rows)) => rows,
        Some(_) => return Err(not_records(format!("{:?} is not an array", opts.rows_key))),
        None => return Err(not_records(format!("no {:?} field", opts.rows_key))),
    };
    let sidecar = match root.remove(&opts.sidecar_key) {
        Some(Value::Object(sidecar)) => sidecar,
        Some(_) => {
            return Err(not_records(format!(
                "{:?} is not a section",
                opts.sidecar_key
            )));
        }
        None => Map::new(),
    };
    if let Some(key) = root.keys().next() {
        return Err(not_records(format!("unexpected field {key:?}")));
    }
    let rests = sidecar_entries(sidecar, rows.len())?;
    rows.into_iter()
        .zip(rests)
        .enumerate()
        .map(|(row, (fields, rest))| assemble(row, fields, rest, &specs))
        .collect()
}

fn not_records(why: impl Into<String>) -> HybridError {
    HybridError::NotRecords(why.into())
}

/// The sidecar's JSON objects by row.
fn sidecar_entries(
    sidecar: Map<String, Value>,
    rows: usize,
) -> Result<Vec<Option<Map<String, Value>>>, HybridError> {
    let mut rests = vec![None; rows];
    for (key, value) in sidecar {
        let Some(row) = row_index(&key, rows) else {
            return Err(HybridError::BadRowKey { key });
        };
        let bad = |reason: &str| HybridError::BadSidecar {
            row,
            reason: reason.to_owned(),
        };
        let Value::String(json) = value else {
            return Err(bad("the value is not JSON text"));
        };
        let rest = match serde_json::from_str(&json) {
            Ok(Value::Object(rest)) => rest,
            Ok(_) => return Err(bad("the JSON is not an object")),
            Err(err) => return Err(bad(&err.to_string())),
        };
        if let Some(slot) = rests.get_mut(row) {
            *slot = Some(rest);
        }
    }
    Ok(rests)
}

/// A row index as the encoder writes it: decimal, no sign, no leading zero, below `rows`.
fn row_index(key: &str, rows: usize) -> Option<usize> {
    let canonical = !key.is_empty()
        && key.bytes().all(|b| b.is_ascii_digit())
        && (key.len() == 1 || !key.starts_with('0'));
    if !canonical {
        return None;
    }
    key.parse().ok().filter(|&row| row < rows)
}

/// One record from its table row and its sidecar object.
fn assemble(
    row: usize,
    fields: Value,
    rest: Option<Map<String, Value>>,
    specs: &Specs,
) -> Result<Value, HybridError> {
    let Value::Object(fields) = fields else {
        // The Toon form writes any value; without a sidecar entry it comes back as it is.
        if rest.is_some() {
            return Err(HybridError::BadSidecar {
                row,
                reason: "the row is not an object".to_owned(),
            });
        }
        return Ok(fields);
    };
    let mut record = Map::new();
    for (name, value) in fields {
        let path = specs.unflatten(&name);
        insert(&mut record, &path, value).map_err(|path| HybridError::Conflict { row, path })?;
    }
    if let Some(rest) = rest {
        merge(&mut record, rest).map_err(|path| HybridError::Conflict { row, path })?;
    }
    Ok(Value::Object(record))
}

/// Puts `value` at `path`, creating the objects on the way and merging an object into an
/// object already there (a `FlatToon` list item holds a parent's lifted leaves and, under the
/// parent's own name, what is left of it). Any other overlap is a conflict, reported by its
/// dotted path.
fn insert(record: &mut Map<String, Value>, path: &[&str], value: Value) -> Result<(), String> {
    let conflict = || path.join(".");
    let Some((last, parents)) = path.split_last() else {
        return Err(conflict());
    };
    let mut map = record;
    for key in parents {
        let parent = map.entry(*key).or_insert_with(|| Value::Object(Map::new()));
        let Value::Object(inner) = parent else {
            return Err(conflict());
        };
        map = inner;
    }
    match (map.get_mut(*last), value) {
        (None, value) => {
            map.insert((*last).to_owned(), value);
            Ok(())
        }
        (Some(Value::Object(inner)), Value::Object(more)) => {
            merge(inner, more).map_err(|rest| format!("{}.{rest}", conflict()))
        }
        (Some(_), _) => Err(conflict()),
    }
}

/// Merges `rest` into `record`, objects into objects; any other overlap is a conflict,
/// reported by its dotted path.
fn merge(record: &mut Map<String, Value>, rest: Map<String, Value>) -> Result<(), String> {
    for (key, value) in rest {
        match (record.get_mut(&key), value) {
            (None, value) => {
                record.insert(key, value);
            }
            (Some(Value::Object(inner)), Value::Object(more)) => {
                merge(inner, more).map_err(|path| format!("{key}.{path}"))?;
            }
            (Some(_), _) => return Err(key),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn row_indices_are_canonical_decimals() {
        assert_eq!(row_index("0", 3), Some(0));
        assert_eq!(row_index("2", 3), Some(2));
        for bad in ["3", "01", "+1", "-1", "", "1.0", " 1", "x"] {
            assert_eq!(row_index(bad, 3), None, "{bad:?}");
        }
    }

    #[test]
    fn inserts_along_paths_and_refuses_overlaps() {
        let mut record = Map::new();
        assert_eq!(insert(&mut record, &["a", "b"], json!(1)), Ok(()));
        assert_eq!(insert(&mut record, &["a", "c"], json!(2)), Ok(()));
        assert_eq!(
            insert(&mut record, &["a", "b"], json!(3)),
            Err("a.b".to_owned())
        );
        assert_eq!(insert(&mut record, &["x"], json!(4)), Ok(()));
        assert_eq!(
            insert(&mut record, &["x", "y"], json!(5)),
            Err("x.y".to_owned())
        );
        // An object merges into the object the lifted leaves created.
        assert_eq!(insert(&mut record, &["a"], json!({"d": [6]})), Ok(()));
        assert_eq!(
            insert(&mut record, &["a"], json!({"b": 7})),
            Err("a.b".to_owned())
        );
        assert_eq!(insert(&mut record, &[], json!(8)), Err(String::new()));
        assert_eq!(
            Value::Object(record),
            json!({"a": {"b": 1, "c": 2, "d": [6]}, "x": 4})
        );
    }

    #[test]
    fn merges_objects_and_names_conflicts() {
        let mut record = json!({"m": {"s": 1}, "p": "a"});
        let Value::Object(map) = &mut record else {
            panic!("an object");
        };
        let rest = json!({"m": {"t": [1]}, "q": null});
        let Value::Object(rest) = rest else {
            panic!("an object");
        };
        assert_eq!(merge(map, rest), Ok(()));
        assert_eq!(
            record,
            json!({"m": {"s": 1, "t": [1]}, "p": "a", "q": null})
        );

        let mut map = Map::new();
        map.insert("m".into(), json!({"s": 1}));
        let clash = json!({"m": {"s": 2}});
        let Value::Object(clash) = clash else {
            panic!("an object");
        };
        assert_eq!(merge(&mut map, clash), Err("m.s".to_owned()));
    }
}
