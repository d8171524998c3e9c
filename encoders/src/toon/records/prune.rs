//! Records seen without some of their nested fields — the ones lifted into columns — and
//! written as JSON or TOON straight from the borrowed `Value`, without a pruned copy.
//!
//! Two rules decide what goes: [`Columns`] (the hybrid table's column paths, the same for
//! every row) and [`Lifted`] (what the flatten specs lift out of one record). Both answer
//! per object entry with a [`Step`], so the same walk counts what is left ([`len`]), writes
//! it ([`Pruned`]) and collects what was lifted ([`Lifted::leaves`]).

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value};

use super::names::Specs;
use super::trie::At;
use super::truncate::Truncation;

/// What pruning does to one `key: value` entry of an object.
pub(super) enum Step<'a, P> {
    /// The entry stays as it is.
    Keep,
    /// The entry goes (it is a column).
    Drop,
    /// The entry is an object pruned further by the inner rule.
    Descend(&'a Map<String, Value>, P),
}

/// A pruning rule positioned at one object.
pub(super) trait Prune<'a>: Sized {
    /// What happens to the entry `key: value` of the object this rule is positioned at.
    fn step(&self, key: &'a str, value: &'a Value) -> Step<'a, Self>;
}

/// Pruning by the hybrid table's column paths: a trie whose valued nodes are columns.
#[derive(Clone, Copy)]
pub(super) struct Columns<'t>(pub(super) At<'t, ()>);

impl<'a> Prune<'a> for Columns<'_> {
    fn step(&self, key: &'a str, value: &'a Value) -> Step<'a, Self> {
        match (self.0.child(key), value) {
            (None, _) => Step::Keep,
            (Some(column), _) if column.value().is_some() => Step::Drop,
            (Some(inner), Value::Object(map)) => Step::Descend(map, Columns(inner)),
            (Some(_), _) => Step::Keep,
        }
    }
}

/// Pruning by the flatten specs within one record: a primitive is lifted when its own path
/// or its parent object's path is a spec, it is nested (top-level fields are columns
/// already), its column name reads back as its path, and the record has no top-level key of
/// that name (which would make two columns of one name).
#[derive(Clone)]
pub(super) struct Lifted<'a> {
    specs: &'a Specs,
    record: &'a Map<String, Value>,
    at: At<'a, ()>,
    /// The object this rule is positioned at is itself a spec: all its primitives go.
    whole: bool,
    path: Vec<&'a str>,
}

/// A primitive lifted into a column.
pub(super) struct Leaf<'a> {
    pub(super) name: String,
    pub(super) path: Vec<&'a str>,
    pub(super) value: &'a Value,
}

impl<'a> Lifted<'a> {
    /// The rule positioned at the record itself.
    pub(super) fn root(specs: &'a Specs, record: &'a Map<String, Value>) -> Self {
        Lifted {
            specs,
            record,
            at: specs.root(),
            whole: false,
            path: Vec::new(),
        }
    }

    fn child_path(&self, key: &'a str) -> Vec<&'a str> {
        let mut path = Vec::with_capacity(self.path.len() + 1);
        path.extend_from_slice(&self.path);
        path.push(key);
        path
    }

    /// The column name of `key` in this object, if it may be lifted under that name.
    fn name_of(&self, key: &'a str) -> Option<(String, Vec<&'a str>)> {
        let path = self.child_path(key);
        let name = self.specs.join(&path);
        let ok = self.specs.names(&name, &path) && !self.record.contains_key(&name);
        ok.then_some((name, path))
    }

    /// Appends the primitives lifted out of `map` (this rule's object), depth first in key
    /// order.
    pub(super) fn leaves(&self, map: &'a Map<String, Value>, out: &mut Vec<Leaf<'a>>) {
        for (key, value) in map {
            match self.step(key, value) {
                Step::Keep => {}
                Step::Drop => {
                    if let Some((name, path)) = self.name_of(key) {
                        out.push(Leaf { name, path, value });
                    }
                }
                Step::Descend(inner, rule) => rule.leaves(inner, out),
            }
        }
    }
}

impl<'a> Prune<'a> for Lifted<'a> {
    fn step(&self, key: &'a str, value: &'a Value) -> Step<'a, Self> {
        let child = self.at.child(key);
        match value {
            Value::Object(map) => match child {
                Some(at) => Step::Descend(
                    map,
                    Lifted {
                        at,
                        whole: at.value().is_some(),
                        path: self.child_path(key),
                        ..self.clone()
                    },
                ),
                None => Step::Keep,
            },
            Value::Array(_) => Step::Keep,
            _ => {
                let ruled = self.whole || child.is_some_and(|at| at.value().is_some());
                if ruled && !self.path.is_empty() && self.name_of(key).is_some() {
                    Step::Drop
                } else {
                    Step::Keep
                }
            }
        }
    }
}

/// Whether an object that was descended into is still written: when something is left, or
/// when it was empty to begin with (nothing was lifted out of it, so leaving it out would
/// lose it). An object emptied by lifting is left out: its columns recreate it.
pub(super) fn stays<'a, P: Prune<'a>>(map: &'a Map<String, Value>, rule: &P) -> bool {
    map.is_empty() || len(map, rule) > 0
}

/// How many entries of `map` the rule keeps (entries, not leaves: a pruned object counts
/// once).
pub(super) fn len<'a, P: Prune<'a>>(map: &'a Map<String, Value>, rule: &P) -> usize {
    map.iter()
        .filter(|&(key, value)| match rule.step(key, value) {
            Step::Keep => true,
            Step::Drop => false,
            Step::Descend(inner, rule) => stays(inner, &rule),
        })
        .count()
}

/// An object written without what its rule prunes, with the truncation rules applied.
pub(super) struct Pruned<'a, P> {
    pub(super) map: &'a Map<String, Value>,
    pub(super) rule: P,
    pub(super) trim: Option<At<'a, usize>>,
    pub(super) rules: &'a Truncation,
}

impl<'a, P: Prune<'a>> Serialize for Pruned<'a, P> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_map(None)?;
        for (key, value) in self.map {
            let trim = self.trim.and_then(|at| at.child(key));
            match self.rule.step(key, value) {
                Step::Keep => out.serialize_entry(key, &self.rules.view(value, trim))?,
                Step::Drop => {}
                Step::Descend(inner, rule) => {
                    if stays(inner, &rule) {
                        let pruned = Pruned {
                            map: inner,
                            rule,
                            trim,
                            rules: self.rules,
                        };
                        out.serialize_entry(key, &pruned)?;
                    }
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
    use crate::toon::records::trie::PathTrie;

    fn object(value: &Value) -> &Map<String, Value> {
        value.as_object().expect("an object")
    }

    fn specs(paths: &[&str]) -> Specs {
        let paths: Vec<String> = paths.iter().map(|p| (*p).to_owned()).collect();
        Specs::new(&paths, "_").expect("valid specs")
    }

    fn no_rules() -> Truncation {
        Truncation::new(&[], "…").expect("valid")
    }

    fn pruned<'a, P: Prune<'a>>(
        map: &'a Map<String, Value>,
        rule: P,
        rules: &'a Truncation,
    ) -> Value {
        let view = Pruned {
            map,
            rule,
            trim: rules.root(),
            rules,
        };
        serde_json::to_value(&view).expect("serializes")
    }

    #[test]
    fn columns_remove_their_paths_and_emptied_parents() {
        let record = json!({
            "path": "a.md",
            "meta": {"source": "web", "tags": ["x"]},
            "other": {"source": "kept"},
            "empty": {},
        });
        let mut trie = PathTrie::new();
        trie.insert(["path"], ());
        trie.insert(["meta", "source"], ());
        trie.insert(["empty", "x"], ());
        let rule = Columns(trie.root());
        let rules = no_rules();
        let rest = pruned(object(&record), rule, &rules);
        assert_eq!(
            rest,
            json!({"meta": {"tags": ["x"]}, "other": {"source": "kept"}, "empty": {}})
        );
        assert_eq!(len(object(&record), &rule), 3);

        let only_columns = json!({"path": "b.md", "meta": {"source": "pdf"}});
        assert_eq!(len(object(&only_columns), &rule), 0);
        assert_eq!(pruned(object(&only_columns), rule, &rules), json!({}));
    }

    #[test]
    fn lifts_primitives_of_spec_objects_and_spec_leaves() {
        let record = json!({
            "path": "a.md",
            "meta": {"source": "web", "page": 3, "tags": ["x"], "score": {"bm25": 1.5, "rank": 2}},
        });
        let specs = specs(&["meta", "meta.score.bm25"]);
        let root = Lifted::root(&specs, object(&record));
        let mut leaves = Vec::new();
        root.leaves(object(&record), &mut leaves);
        let names: Vec<&str> = leaves.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["meta_source", "meta_page", "meta_score_bm25"]);
        assert_eq!(
            leaves.get(2).map(|l| l.path.clone()),
            Some(vec!["meta", "score", "bm25"])
        );

        let rules = no_rules();
        let rest = pruned(object(&record), root, &rules);
        assert_eq!(
            rest,
            json!({"path": "a.md", "meta": {"tags": ["x"], "score": {"rank": 2}}})
        );
    }

    #[test]
    fn does_not_lift_into_a_name_the_record_already_has() {
        let record = json!({"meta_source": "top", "meta": {"source": "nested"}});
        let specs = specs(&["meta"]);
        let root = Lifted::root(&specs, object(&record));
        let mut leaves = Vec::new();
        root.leaves(object(&record), &mut leaves);
        assert!(leaves.is_empty());
        assert_eq!(len(object(&record), &root), 2);
    }
}
