//! The flattened view of a record: its top-level fields with the flatten specs applied, as
//! the `FlatToon` form writes it and as the shape analysis compares records.

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::{Map, Value};

use super::Ctx;
use super::names::Specs;
use super::prune::{Leaf, Lifted, Prune, Pruned, Step, stays};

/// One field of a flattened record.
pub(super) enum Entry<'a> {
    /// A top-level field, as it is.
    Field(&'a str, &'a Value),
    /// A nested primitive lifted into its own column.
    Leaf(Leaf<'a>),
    /// What is left of a top-level object after lifting (written only when non-empty).
    Rest(&'a str, &'a Map<String, Value>, Lifted<'a>),
}

impl Entry<'_> {
    /// The field's name in the flattened record.
    pub(super) fn name(&self) -> &str {
        match self {
            Entry::Field(key, _) | Entry::Rest(key, _, _) => key,
            Entry::Leaf(leaf) => &leaf.name,
        }
    }
}

/// The fields of `record` flattened by `specs`: top-level fields in order, each object the
/// specs reach replaced by its lifted leaves followed by its remainder.
pub(super) fn entries<'a>(record: &'a Map<String, Value>, specs: &'a Specs) -> Vec<Entry<'a>> {
    let root = Lifted::root(specs, record);
    let mut out = Vec::with_capacity(record.len());
    let mut leaves = Vec::new();
    for (key, value) in record {
        match root.step(key, value) {
            // The root rule never drops: top-level fields are columns as they are.
            Step::Keep | Step::Drop => out.push(Entry::Field(key, value)),
            Step::Descend(map, rule) => {
                rule.leaves(map, &mut leaves);
                out.extend(leaves.drain(..).map(Entry::Leaf));
                if stays(map, &rule) {
                    out.push(Entry::Rest(key, map, rule));
                }
            }
        }
    }
    out
}

/// The records of the `FlatToon` form: each record flattened, truncation applied.
pub(super) struct FlatRows<'a> {
    pub(super) records: &'a [&'a Map<String, Value>],
    pub(super) ctx: &'a Ctx<'a>,
}

impl Serialize for FlatRows<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.records.len()))?;
        for record in self.records {
            seq.serialize_element(&FlatRecord {
                record,
                ctx: self.ctx,
            })?;
        }
        seq.end()
    }
}

struct FlatRecord<'a> {
    record: &'a Map<String, Value>,
    ctx: &'a Ctx<'a>,
}

impl Serialize for FlatRecord<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let rules = &self.ctx.rules;
        let mut out = serializer.serialize_map(None)?;
        for entry in entries(self.record, &self.ctx.specs) {
            match entry {
                Entry::Field(key, value) => {
                    out.serialize_entry(key, &rules.view(value, rules.at(&[key])))?;
                }
                Entry::Leaf(leaf) => {
                    out.serialize_entry(&leaf.name, &rules.view(leaf.value, rules.at(&leaf.path)))?;
                }
                Entry::Rest(key, map, rule) => {
                    let rest = Pruned {
                        map,
                        rule,
                        trim: rules.at(&[key]),
                        rules,
                    };
                    out.serialize_entry(key, &rest)?;
                }
            }
        }
        out.end()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn lists_fields_in_record_order_with_leaves_in_place() {
        let record = json!({
            "path": "a.md",
            "meta": {"source": "web", "tags": ["x"]},
            "score": 0.5,
        });
        let specs = Specs::new(&["meta".to_owned()], "_").expect("valid");
        let map = record.as_object().expect("object");
        let found = entries(map, &specs);
        let names: Vec<String> = found.iter().map(|e| e.name().to_owned()).collect();
        assert_eq!(names, ["path", "meta_source", "meta", "score"]);
        assert!(matches!(found.get(2), Some(Entry::Rest("meta", _, _))));
    }

    #[test]
    fn a_fully_lifted_object_leaves_no_rest() {
        let record = json!({"meta": {"source": "web", "page": 2}});
        let specs = Specs::new(&["meta".to_owned()], ".").expect("valid");
        let map = record.as_object().expect("object");
        let names: Vec<String> = entries(map, &specs)
            .iter()
            .map(|e| e.name().to_owned())
            .collect();
        assert_eq!(names, ["meta.source", "meta.page"]);
    }
}
