//! Names that many functions and methods share. An unresolved call of `make` may reach any of
//! a project's hundreds of `make` functions; an answer names the first few by ID and counts
//! them. Found through the search term `make`, that meant viewing the record of every node
//! the term holds (variables, properties and other cases too) and sorting their IDs, on every
//! such answer. So for a name shared by more than [`CROWDED`] functions and methods, the
//! `crowded` table lists each of them, `(name, ID) → key`: the count and the first IDs are one
//! range read. A name fewer share has no rows; its few callables are found through its term.
//!
//! **Invariant:** a (non-empty) name has rows exactly when more than [`CROWDED`] functions and
//! methods are named so (case included), and then its rows are exactly those; a nameless
//! callable never has one. A bulk load writes the rows
//! of every such name at its commit ([`Callables`], gathered with the search terms); a batch
//! write applies the callables it removes and adds ([`CallableChanges`]).

use std::collections::BTreeMap;

use redb::{ReadableTable, Table};

use super::interner::Interner;
use super::search::Postings;
use crate::error::{DbResultExt, StoreError};
use crate::model::NodeKind;
use crate::record::{NodeRecord, NodeView};

/// Functions and methods a name must be shared by, beyond this many, to have rows.
pub(crate) const CROWDED: usize = 16;

/// The kinds an unresolved call may reach.
pub(crate) fn is_callable(kind: NodeKind) -> bool {
    matches!(kind, NodeKind::Function | NodeKind::Method)
}

/// Whether `node` is a named function or method.
pub(crate) fn is_named_callable(node: &NodeRecord) -> bool {
    NodeKind::from_u8(node.kind).is_some_and(is_callable) && !node.name.is_empty()
}

/// The callables of a bulk load as they are written: each name and each file held once, the
/// rest of each ID (past `{file}:`, which every ID of a file's symbols starts with) one after
/// another, and a row per callable.
#[derive(Default)]
pub(super) struct Callables {
    names: Interner,
    /// The IDs' beginnings: their files' paths with the `:` that follows.
    files: Interner,
    /// The IDs' ends, past their beginnings.
    rests: String,
    rows: Vec<Callable>,
}

/// A callable of [`Callables`]: its name's number, its ID's beginning's number and where the
/// rest lies in `rests`, its key.
struct Callable {
    name: u32,
    file: u32,
    rest: (u32, u32),
    key: u32,
}

impl Callables {
    /// Takes `node`, written under `key`, if it is a named function or method.
    pub(super) fn add_node(&mut self, key: u32, node: &NodeRecord) -> Result<(), StoreError> {
        if !is_named_callable(node) {
            return Ok(());
        }
        let too_large =
            || StoreError::TooLarge("the callables of one load exceed 4 GiB".to_owned());
        let name = self.names.intern(&[&node.name]).ok_or_else(too_large)?;
        // An ID that does not start with its file's path (none the indexer makes) is kept
        // whole, behind an empty beginning.
        let (file, rest) = match node.id.strip_prefix(node.file.as_str()) {
            Some(rest) if rest.starts_with(':') => (&[node.file.as_str(), ":"][..], &rest[1..]),
            _ => (&[][..], node.id.as_str()),
        };
        let file = self.files.intern(file).ok_or_else(too_large)?;
        let start = u32::try_from(self.rests.len()).map_err(|_| too_large())?;
        self.rests.push_str(rest);
        let end = u32::try_from(self.rests.len()).map_err(|_| too_large())?;
        self.rows.push(Callable {
            name,
            file,
            rest: (start, end),
            key,
        });
        Ok(())
    }

    /// Keeps the callables of the crowded names alone, sorted by name, then ID: the order of
    /// the table's keys.
    pub(super) fn crowded(mut self) -> Callables {
        let mut counts = vec![0usize; self.names.len()];
        for row in &self.rows {
            counts[row.name as usize] += 1;
        }
        self.rows.retain(|row| counts[row.name as usize] > CROWDED);
        let ranks = self.names.ranks();
        let mut rows = std::mem::take(&mut self.rows);
        rows.sort_unstable_by(|a, b| {
            (ranks[a.name as usize].cmp(&ranks[b.name as usize]))
                .then_with(|| self.id_bytes(a).cmp(self.id_bytes(b)))
        });
        self.rows = rows;
        self
    }

    /// The bytes of `row`'s ID, its beginning then the rest: IDs compare as their bytes do.
    fn id_bytes(&self, row: &Callable) -> impl Iterator<Item = u8> + '_ {
        let rest = self.rests.get(row.rest.0 as usize..row.rest.1 as usize);
        (self.files.get(row.file).bytes()).chain(rest.unwrap_or("").bytes())
    }

    /// Each callable as `(name, ID, key)`, in the order taken (table order once
    /// [`Callables::crowded`]), to `each`.
    fn each_row(
        &self,
        mut each: impl FnMut(&str, &str, u32) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        let mut id = String::new();
        for row in &self.rows {
            id.clear();
            id.push_str(self.files.get(row.file));
            id.push_str(
                self.rests
                    .get(row.rest.0 as usize..row.rest.1 as usize)
                    .unwrap_or(""),
            );
            each(self.names.get(row.name), &id, row.key)?;
        }
        Ok(())
    }

    /// Inserts the rows into the (empty) table, in its key order once [`Callables::crowded`].
    pub(super) fn insert_into(
        &self,
        table: &mut Table<'_, (&'static str, &'static str), u32>,
    ) -> Result<(), StoreError> {
        self.each_row(|name, id, key| {
            table.insert((name, id), key).ctx("write crowded names")?;
            Ok(())
        })
    }
}

/// The functions and methods a batch write removes and adds, by name: what it changes of the
/// crowded names' rows.
#[derive(Default)]
pub(super) struct CallableChanges(BTreeMap<String, (Vec<String>, Vec<Row>)>);

/// A callable's ID and key.
type Row = (String, u32);

impl CallableChanges {
    /// Takes the record of a node the write removes (or rewrites).
    pub(super) fn removed(&mut self, node: &NodeRecord) {
        if is_named_callable(node) {
            let (removed, _) = self.0.entry(node.name.clone()).or_default();
            removed.push(node.id.clone());
        }
    }

    /// Takes a node the write adds under `key`.
    pub(super) fn added(&mut self, node: &NodeRecord, key: u32) {
        if is_named_callable(node) {
            let (_, added) = self.0.entry(node.name.clone()).or_default();
            added.push((node.id.clone(), key));
        }
    }

    /// Brings the rows of each name it holds level with the nodes. `terms` and `nodes` are
    /// the write's own tables, already written. A crowded name's rows take the changes; a
    /// name without rows is looked at only when the write adds more of its callables than it
    /// removes (only then can it pass the bound), through its term.
    pub(super) fn apply(
        self,
        terms: &Table<'_, &'static str, &'static [u8]>,
        nodes: &Table<'_, u32, &'static [u8]>,
        crowded: &mut Table<'_, (&'static str, &'static str), u32>,
    ) -> Result<(), StoreError> {
        for (name, (mut removed, added)) in self.0 {
            // A file written again with the same callables: they come back under their IDs
            // and keys (a surviving ID keeps its key), so the rows, or their absence, stand.
            let mut added_ids: Vec<&String> = added.iter().map(|(id, _)| id).collect();
            removed.sort_unstable();
            added_ids.sort_unstable();
            if removed.iter().eq(added_ids.iter().copied()) {
                continue;
            }
            let old = rows_of(crowded, &name)?;
            let mut new = if !old.is_empty() {
                // A rewritten node leaves and comes back under its old ID (and key): once.
                let mut new: Vec<(String, u32)> = (old.iter())
                    .filter(|(id, _)| removed.binary_search(id).is_err())
                    .filter(|(id, _)| added_ids.binary_search(&id).is_err())
                    .cloned()
                    .collect();
                new.extend(added);
                new
            } else if added.len() > removed.len() {
                callables_named(&name, terms, nodes)?
            } else {
                continue;
            };
            if new.len() <= CROWDED {
                new.clear();
            }
            new.sort_unstable();
            for (id, _) in old.iter().filter(|row| new.binary_search(row).is_err()) {
                crowded
                    .remove((name.as_str(), id.as_str()))
                    .ctx("remove crowded name")?;
            }
            for (id, key) in new.iter().filter(|row| old.binary_search(row).is_err()) {
                crowded
                    .insert((name.as_str(), id.as_str()), *key)
                    .ctx("write crowded name")?;
            }
        }
        Ok(())
    }
}

/// The `(ID, key)` rows of `name`, ascending.
pub(super) fn rows_of(
    crowded: &impl ReadableTable<(&'static str, &'static str), u32>,
    name: &str,
) -> Result<Vec<(String, u32)>, StoreError> {
    let mut rows = Vec::new();
    each_row(crowded, name, |id, key| rows.push((id.to_owned(), key)))?;
    Ok(rows)
}

/// Calls `each` with the ID and key of every row of `name`, ascending by ID.
fn each_row(
    crowded: &impl ReadableTable<(&'static str, &'static str), u32>,
    name: &str,
    mut each: impl FnMut(&str, u32),
) -> Result<(), StoreError> {
    for entry in crowded.range((name, "")..).ctx("read crowded names")? {
        let (row, key) = entry.ctx("read crowded names")?;
        let (named, id) = row.value();
        if named != name {
            break;
        }
        each(id, key.value());
    }
    Ok(())
}

/// Every function and method named exactly `name`, as `(ID, key)`, from its search term.
fn callables_named(
    name: &str,
    terms: &Table<'_, &'static str, &'static [u8]>,
    nodes: &Table<'_, u32, &'static [u8]>,
) -> Result<Vec<(String, u32)>, StoreError> {
    let Some(postings) = terms
        .get(name.to_lowercase().as_str())
        .ctx("read search terms")?
    else {
        return Ok(Vec::new());
    };
    let mut found = Vec::new();
    for key in Postings::parse(postings.value())?.keys() {
        let record = nodes.get(key).ctx("read node")?.ok_or_else(|| {
            StoreError::corrupted("search terms", format!("name node {key}, which is gone"))
        })?;
        let view = NodeView::from_bytes(record.value())?;
        if is_callable(view.kind()) && view.name() == name {
            found.push((view.id().to_owned(), key));
        }
    }
    Ok(found)
}

/// How many rows `name` has and the IDs of its first `listed`, or `None` when it has none
/// (at most [`CROWDED`] callables share it).
pub(super) fn first_of(
    crowded: &impl ReadableTable<(&'static str, &'static str), u32>,
    name: &str,
    listed: usize,
) -> Result<Option<(usize, Vec<String>)>, StoreError> {
    let mut count = 0;
    let mut first = Vec::new();
    each_row(crowded, name, |id, _| {
        if first.len() < listed {
            first.push(id.to_owned());
        }
        count += 1;
    })?;
    Ok((count > 0).then_some((count, first)))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // A failure is the test failing.

    use super::*;

    /// A node of the file its ID names.
    fn node(id: &str, kind: NodeKind, name: &str) -> NodeRecord {
        let file = id.split_once(':').map_or(id, |(file, _)| file);
        NodeRecord::new(id, kind, name, file, 1, 1)
    }

    #[test]
    fn a_load_keeps_the_callables_of_crowded_names_in_key_order() {
        let mut callables = Callables::default();
        let mut key = 0;
        let mut add = |id: String, kind, name: &str| {
            callables.add_node(key, &node(&id, kind, name)).unwrap();
            key += 1;
        };
        // One more `make` function than the bound, listed out of ID order; as many `get`
        // methods as the bound; `make` variables and a `Make` function, which do not count.
        for i in (0..=CROWDED).rev() {
            add(format!("m{i:02}.ts:make"), NodeKind::Function, "make");
        }
        for i in 0..CROWDED {
            add(format!("g{i:02}.ts:A.get"), NodeKind::Method, "get");
        }
        add("v.ts:make".to_owned(), NodeKind::Variable, "make");
        add("c.ts:Make".to_owned(), NodeKind::Function, "Make");
        // A crowded name taken last that sorts first, its IDs interleaved with the others'.
        for i in 0..CROWDED {
            add(format!("m{i:02}.ts:B.build"), NodeKind::Method, "build");
        }
        // IDs order as their bytes, not by file first: `k-l:…` before `k:…`.
        add("k:B.build".to_owned(), NodeKind::Method, "build");
        add("k-l:B.build".to_owned(), NodeKind::Method, "build");
        let crowded = callables.crowded();
        let mut rows: Vec<(String, String, u32)> = Vec::new();
        (crowded.each_row(|name, id, key| {
            rows.push((name.to_owned(), id.to_owned(), key));
            Ok(())
        }))
        .unwrap();
        let rows: Vec<(&str, &str, u32)> = rows
            .iter()
            .map(|(n, i, k)| (n.as_str(), i.as_str(), *k))
            .collect();
        assert_eq!(rows.len(), 2 * (CROWDED + 1) + 1);
        let (build, make) = rows.split_at(CROWDED + 2);
        assert_eq!((build[0].1, build[1].1), ("k-l:B.build", "k:B.build"));
        assert!(build.iter().all(|row| row.0 == "build"));
        assert!(make.iter().all(|row| row.0 == "make"));
        assert_eq!(make[0], ("make", "m00.ts:make", CROWDED as u32));
        assert!(rows.is_sorted());
    }
}
