//! Shape analysis for [`choose`](super::choose) and the hybrid form: nesting depth, whether
//! records already make a TOON table, whether they do after flattening, and which columns
//! every record shares.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::MAX_TABLE_DEPTH;
use super::flat::{Entry, entries};
use super::names::Specs;
use super::prune::{Columns, len};

/// Whether `value` nests arrays and objects deeper than `limit` (a primitive has depth 0, a
/// flat record 1). Iterative, so no input can exhaust the stack.
pub(super) fn deeper_than(value: &Value, limit: usize) -> bool {
    let mut stack = vec![(value, 0usize)];
    while let Some((value, depth)) = stack.pop() {
        let level = depth + 1;
        match value {
            Value::Array(_) | Value::Object(_) if level > limit => return true,
            Value::Array(items) => stack.extend(items.iter().map(|child| (child, level))),
            Value::Object(map) => stack.extend(map.values().map(|child| (child, level))),
            _ => {}
        }
    }
    false
}

fn is_primitive(value: &Value) -> bool {
    !value.is_object() && !value.is_array()
}

/// The column layout of a table: per key, `None` for a leaf or the group's own layout.
struct Layout<'a>(Vec<(&'a str, Option<Layout<'a>>)>);

impl<'a> Layout<'a> {
    /// The layout `map` heads, as the TOON encoder builds it: primitives are leaves,
    /// non-empty objects groups; an array or an empty object rules the table out, and so
    /// does nesting past [`MAX_TABLE_DEPTH`] (`depth` is `map`'s own).
    fn of(map: &'a Map<String, Value>, depth: usize) -> Option<Self> {
        if map.is_empty() || depth > MAX_TABLE_DEPTH {
            return None;
        }
        let mut columns = Vec::with_capacity(map.len());
        for (key, value) in map {
            let column = match value {
                Value::Array(_) => return None,
                Value::Object(inner) => Some(Layout::of(inner, depth + 1)?),
                _ => None,
            };
            columns.push((key.as_str(), column));
        }
        Some(Layout(columns))
    }

    /// Whether `map` has exactly these keys (in any order) with matching values.
    fn fits(&self, map: &Map<String, Value>) -> bool {
        map.len() == self.0.len()
            && self
                .0
                .iter()
                .all(|(key, column)| match (column, map.get(*key)) {
                    (None, Some(value)) => is_primitive(value),
                    (Some(group), Some(Value::Object(inner))) => group.fits(inner),
                    _ => false,
                })
    }
}

/// Whether the TOON encoder writes these records as one table, with nested objects (column
/// groups) no deeper than [`MAX_TABLE_DEPTH`].
pub(super) fn is_table(records: &[&Map<String, Value>]) -> bool {
    let Some((first, rest)) = records.split_first() else {
        return false;
    };
    let Some(layout) = Layout::of(first, 1) else {
        return false;
    };
    rest.iter().all(|record| layout.fits(record))
}

/// Whether every top-level key reads back as itself, so that a table of the records as they
/// are decodes with the flatten specs without a key taken for a flattened name.
pub(super) fn keys_read_back(records: &[&Map<String, Value>], specs: &Specs) -> bool {
    records
        .iter()
        .all(|record| record.keys().all(|key| specs.names(key, &[key.as_str()])))
}

/// How the records look once flattened.
pub(super) struct FlatShape {
    /// Every flattened record has the same field names, every field is a primitive, and
    /// every top-level key reads back as itself (so the table decodes unambiguously).
    pub(super) uniform: bool,
    /// The specs lift at least one field out of some record.
    pub(super) lifts: bool,
}

pub(super) fn flat_shape(records: &[&Map<String, Value>], specs: &Specs) -> FlatShape {
    let mut names: Option<HashSet<String>> = None;
    let mut shape = FlatShape {
        uniform: true,
        lifts: false,
    };
    for record in records {
        let found = entries(record, specs);
        shape.lifts |= found.iter().any(|e| matches!(e, Entry::Leaf(_)));
        if !shape.uniform {
            continue;
        }
        let admissible = found.iter().all(|entry| match entry {
            Entry::Field(key, value) => is_primitive(value) && specs.names(key, &[key]),
            Entry::Leaf(_) => true,
            Entry::Rest(..) => false,
        });
        shape.uniform = admissible
            && match &names {
                None => {
                    names = Some(found.iter().map(|e| e.name().to_owned()).collect());
                    true
                }
                Some(first) => {
                    found.len() == first.len() && found.iter().all(|e| first.contains(e.name()))
                }
            };
    }
    shape.uniform &= names.is_some_and(|n| !n.is_empty());
    shape
}

/// A column of the hybrid table.
pub(super) struct Column<'a> {
    pub(super) name: String,
    pub(super) path: Vec<&'a str>,
}

/// The value at `path` in `record`, through nested objects.
pub(super) fn value_at<'a>(record: &'a Map<String, Value>, path: &[&str]) -> Option<&'a Value> {
    let (last, parents) = path.split_last()?;
    let mut map = record;
    for key in parents {
        map = map.get(*key)?.as_object()?;
    }
    map.get(*last)
}

/// The hybrid table's columns: the first record's flattened primitives (top-level keys that
/// read back as themselves, and lifted leaves) that every record has as a primitive under
/// the same name, in the first record's order.
pub(super) fn columns<'a>(records: &[&'a Map<String, Value>], specs: &'a Specs) -> Vec<Column<'a>> {
    let Some((first, rest)) = records.split_first() else {
        return Vec::new();
    };
    let candidates = entries(first, specs)
        .into_iter()
        .filter_map(|entry| match entry {
            Entry::Field(key, value) if is_primitive(value) && specs.names(key, &[key]) => {
                Some(Column {
                    name: key.to_owned(),
                    path: vec![key],
                })
            }
            Entry::Leaf(leaf) => Some(Column {
                name: leaf.name,
                path: leaf.path,
            }),
            _ => None,
        });
    candidates
        .filter(|column| {
            rest.iter().all(|record| {
                let primitive = value_at(record, &column.path).is_some_and(is_primitive);
                // A lifted name must not also be a top-level key of this record.
                let lifted_clash = column.path.len() > 1 && record.contains_key(&column.name);
                primitive && !lifted_clash
            })
        })
        .collect()
}

/// The number of top-level sidecar entries each record leaves once `columns` are taken out.
pub(super) fn sidecar_fields(records: &[&Map<String, Value>], columns: Columns<'_>) -> usize {
    records.iter().map(|record| len(record, &columns)).sum()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn objects(values: &[Value]) -> Vec<&Map<String, Value>> {
        values.iter().filter_map(Value::as_object).collect()
    }

    #[test]
    fn measures_depth_without_recursion() {
        assert!(!deeper_than(&json!(1), 0));
        assert!(!deeper_than(&json!({"a": 1}), 1));
        assert!(deeper_than(&json!({"a": [1]}), 1));
        assert!(!deeper_than(&json!({"a": {"b": [1]}}), 3));
        assert!(deeper_than(&json!({"a": {"b": [1]}}), 2));
        assert!(!deeper_than(&json!({"a": {}}), 2));

        let mut deep = json!(0);
        for _ in 0..100_000 {
            deep = Value::Array(vec![deep]);
        }
        assert!(deeper_than(&deep, 128));
        // A value this deep overflows the stack in its recursive `Drop`; leak it in the test.
        std::mem::forget(deep);
    }

    #[test]
    fn tables_follow_the_encoder_rules() {
        let flat = [json!({"a": 1, "b": "x"}), json!({"b": "y", "a": 2})];
        assert!(is_table(&objects(&flat)));
        let grouped = [
            json!({"a": 1, "m": {"s": 1}}),
            json!({"a": 2, "m": {"s": 2}}),
        ];
        assert!(is_table(&objects(&grouped)));
        let too_deep = [json!({"a": 1, "m": {"s": {"t": 1}}})];
        assert!(!is_table(&objects(&too_deep)));
        let ragged = [json!({"a": 1}), json!({"a": 2, "b": 3})];
        assert!(!is_table(&objects(&ragged)));
        let array = [json!({"a": [1]})];
        assert!(!is_table(&objects(&array)));
        let empty_group = [json!({"a": 1, "m": {}})];
        assert!(!is_table(&objects(&empty_group)));
        assert!(!is_table(&objects(&[json!({})])));
        let mixed = [json!({"a": 1}), json!({"a": {"x": 1}})];
        assert!(!is_table(&objects(&mixed)));
    }

    #[test]
    fn flat_shape_needs_identical_primitive_fields() {
        let specs = Specs::new(&["meta".to_owned()], "_").expect("valid");
        let uniform = [
            json!({"p": "a", "meta": {"s": "web"}}),
            json!({"meta": {"s": "pdf"}, "p": "b"}),
        ];
        let shape = flat_shape(&objects(&uniform), &specs);
        assert!(shape.uniform && shape.lifts);

        let ragged = [
            json!({"p": "a", "meta": {"s": "web"}}),
            json!({"p": "b", "meta": {}}),
        ];
        let shape = flat_shape(&objects(&ragged), &specs);
        assert!(!shape.uniform && shape.lifts);

        // `meta_x` would read back as `meta.x`: not a safe column.
        let ambiguous = [json!({"meta_x": 1, "meta": {"s": "web"}})];
        assert!(!flat_shape(&objects(&ambiguous), &specs).uniform);

        let nothing = [json!({"p": "a"})];
        let shape = flat_shape(&objects(&nothing), &specs);
        assert!(shape.uniform && !shape.lifts);
    }

    #[test]
    fn columns_are_the_shared_primitives() {
        let specs = Specs::new(&["meta".to_owned()], "_").expect("valid");
        let records = [
            json!({"path": "a", "n": 1, "meta": {"source": "web", "author": "Ada"}, "tags": ["x"]}),
            json!({"path": "b", "n": [2], "meta": {"source": "pdf"}}),
            json!({"meta": {"source": "web"}, "path": "c", "n": 3}),
        ];
        let records = objects(&records);
        let found = columns(&records, &specs);
        let names: Vec<&str> = found.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["path", "meta_source"]);

        let mut trie = super::super::trie::PathTrie::new();
        for column in &found {
            trie.insert(column.path.iter().copied(), ());
        }
        // Row 0 keeps n, meta{author}, tags; row 1 keeps n; row 2 keeps n.
        assert_eq!(sidecar_fields(&records, Columns(trie.root())), 5);
    }

    #[test]
    fn keys_that_look_flattened_do_not_read_back() {
        let specs = Specs::new(&["meta".to_owned()], "_").expect("valid");
        let plain = [json!({"path": "a", "meta": {"s": 1}, "metadata_x": 1})];
        assert!(keys_read_back(&objects(&plain), &specs));
        let lookalike = [json!({"path": "a"}), json!({"meta_s": 1})];
        assert!(!keys_read_back(&objects(&lookalike), &specs));
        assert!(keys_read_back(&objects(&lookalike), &Specs::none("_")));
    }

    #[test]
    fn finds_values_by_path() {
        let record = json!({"a": {"b": {"c": 1}}, "x": 2});
        let map = record.as_object().expect("object");
        assert_eq!(value_at(map, &["a", "b", "c"]), Some(&json!(1)));
        assert_eq!(value_at(map, &["x"]), Some(&json!(2)));
        assert_eq!(value_at(map, &["x", "y"]), None);
        assert_eq!(value_at(map, &[]), None);
    }
}
