//! The writer's side of the unresolved call sites: each file's sites are stored per called
//! name (`UNRESOLVED`, keyed by name then file), with the file's names beside them
//! (`UNRESOLVED_NAMES`) so that a rewrite of the file finds what to remove.

use std::collections::BTreeMap;

use super::write::{Tables, archive};
use crate::error::{DbResultExt, StoreError};
use crate::record::{UnresolvedCall, UnresolvedList};

/// Writes unresolved calls, each with its file's path (none stored for those files yet):
/// one list per called name and file, inserted in key order (neighbours share B-tree pages),
/// and each file's names. A file without unresolved calls writes nothing.
pub(super) fn store_unresolved<'p>(
    tables: &mut Tables<'_>,
    calls: impl IntoIterator<Item = (&'p str, UnresolvedCall)>,
    buffer: &mut rkyv::util::AlignedVec<16>,
) -> Result<(), StoreError> {
    UnresolvedRows::of(calls, buffer)?.insert_into(tables)
}

/// The rows of both tables: `((name, path), bytes)` and `(path, names)`.
#[cfg(test)]
pub(super) type RowParts = (Vec<((String, String), Vec<u8>)>, Vec<(String, Vec<u8>)>);

/// Unresolved call sites made into the rows of both tables, archived, in key order: what a
/// batch write inserts at once, and a bulk load makes aside from its writer
/// ([`super::aside`]) to insert later.
pub(super) struct UnresolvedRows {
    /// `((name, path), sites)`, ascending.
    lists: Vec<((String, String), Vec<u8>)>,
    /// `(path, names)`, ascending.
    names: Vec<(String, Vec<u8>)>,
}

impl UnresolvedRows {
    /// The rows of `calls`, each with its file's path. A file's sites of one name keep the
    /// order they come in.
    pub(super) fn of<'p>(
        calls: impl IntoIterator<Item = (&'p str, UnresolvedCall)>,
        buffer: &mut rkyv::util::AlignedVec<16>,
    ) -> Result<UnresolvedRows, StoreError> {
        let mut rows = UnresolvedRows {
            lists: Vec::new(),
            names: Vec::new(),
        };
        let mut calls: Vec<(&str, UnresolvedCall)> = calls.into_iter().collect();
        // By name, then file; the sort is stable, so a file's sites keep the indexer's order.
        calls.sort_by(|(a_path, a), (b_path, b)| {
            (a.name.as_str(), *a_path).cmp(&(b.name.as_str(), *b_path))
        });
        // Each file's names come out ascending, as the names are the outer key.
        let mut names_of: BTreeMap<&str, Vec<String>> = BTreeMap::new();
        let mut calls = calls.into_iter().peekable();
        while let Some((path, first)) = calls.next() {
            let mut sites = vec![first];
            while let Some((_, next)) =
                calls.next_if(|(other, call)| *other == path && call.name == sites[0].name)
            {
                sites.push(next);
            }
            let name = sites[0].name.clone();
            names_of.entry(path).or_default().push(name.clone());
            let list = UnresolvedList { calls: sites };
            let bytes = archive(&list, buffer, || format!("unresolved calls of {path}"))?;
            rows.lists.push(((name, path.to_owned()), bytes.to_vec()));
        }
        for (path, names) in names_of {
            let bytes = archive(&names, buffer, || format!("unresolved names of {path}"))?;
            rows.names.push((path.to_owned(), bytes.to_vec()));
        }
        Ok(rows)
    }

    /// Every row, `(name, path)` with its bytes, then each path's names.
    #[cfg(test)]
    pub(super) fn rows(&self) -> RowParts {
        (self.lists.clone(), self.names.clone())
    }

    /// Inserts the rows, in their order.
    pub(super) fn insert_into(&self, tables: &mut Tables<'_>) -> Result<(), StoreError> {
        for ((name, path), bytes) in &self.lists {
            tables
                .unresolved
                .insert((name.as_str(), path.as_str()), bytes.as_slice())
                .ctx("write unresolved")?;
        }
        for (path, bytes) in &self.names {
            tables
                .unresolved_names
                .insert(path.as_str(), bytes.as_slice())
                .ctx("write unresolved names")?;
        }
        Ok(())
    }
}

/// Removes the unresolved calls of the file at `path`.
pub(super) fn remove_unresolved(tables: &mut Tables<'_>, path: &str) -> Result<(), StoreError> {
    let names = match tables
        .unresolved_names
        .remove(path)
        .ctx("remove unresolved names")?
    {
        Some(bytes) => rkyv::from_bytes::<Vec<String>, rkyv::rancor::Error>(bytes.value())
            .map_err(|err| StoreError::corrupted(format!("unresolved names of {path}"), err))?,
        None => return Ok(()),
    };
    for name in &names {
        tables
            .unresolved
            .remove((name.as_str(), path))
            .ctx("remove unresolved")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // A failure is the test failing.

    use super::super::Store;
    use crate::model::NodeKind;
    use crate::record::{GraphBatch, NodeRecord, UnresolvedCall};

    /// A file `path` with one function `f` making the unresolved calls `calls` (callee, line).
    fn file(path: &str, calls: &[(&str, u32)]) -> GraphBatch {
        let mut batch = GraphBatch::default();
        batch.add_file(path, 1);
        batch
            .nodes
            .push(NodeRecord::new(path, NodeKind::File, path, path, 1, 99));
        let caller = format!("{path}:f");
        batch.nodes.push(NodeRecord::new(
            &caller,
            NodeKind::Function,
            "f",
            path,
            1,
            99,
        ));
        for &(callee, line) in calls {
            let name = callee.rsplit('.').next().unwrap().to_owned();
            batch.unresolved.push((
                path.to_owned(),
                UnresolvedCall {
                    caller: caller.clone(),
                    callee: callee.to_owned(),
                    name,
                    line,
                    reason: "unknown-receiver".to_owned(),
                },
            ));
        }
        batch
    }

    /// Every site of `name`: (file, line, callee), in the store's order.
    fn sites(store: &Store, name: &str) -> Vec<(String, u32, String)> {
        let snapshot = store.snapshot().unwrap();
        let (count, first) = snapshot.unresolved_call_sample(name, usize::MAX).unwrap();
        assert_eq!(count, first.len());
        assert_eq!(snapshot.unresolved_call_count(name).unwrap(), count);
        first
            .into_iter()
            .map(|(file, call)| (file, call.line, call.callee))
            .collect()
    }

    #[test]
    fn a_name_finds_its_sites_in_every_file_and_an_update_replaces_a_files_own() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_or_create(dir.path().join("g.redb")).unwrap();
        let mut all = file("b.ts", &[("repo.save", 7), ("x.load", 3), ("y.save", 2)]);
        let a = file("a.ts", &[("this.save", 5)]);
        all.files.extend(a.files);
        all.nodes.extend(a.nodes);
        all.unresolved.extend(a.unresolved);
        store.replace_all(&all).unwrap();
        // Ascending by file; a file's sites in the order the indexer gave them.
        assert_eq!(
            sites(&store, "save"),
            [
                ("a.ts".to_owned(), 5, "this.save".to_owned()),
                ("b.ts".to_owned(), 7, "repo.save".to_owned()),
                ("b.ts".to_owned(), 2, "y.save".to_owned()),
            ]
        );
        assert_eq!(sites(&store, "load").len(), 1);
        // A name that is a prefix of another, or sorts between, finds nothing of theirs.
        assert!(sites(&store, "sav").is_empty());
        assert!(sites(&store, "loa").is_empty());

        // b.ts now calls `load` only: its `save` sites go, a.ts keeps its own.
        store
            .replace_files(&file("b.ts", &[("z.load", 9)]), &[])
            .unwrap();
        assert_eq!(
            sites(&store, "save"),
            [("a.ts".to_owned(), 5, "this.save".to_owned())]
        );
        assert_eq!(
            sites(&store, "load"),
            [("b.ts".to_owned(), 9, "z.load".to_owned())]
        );

        // Removing a.ts removes its sites; a file without any removes nothing.
        store
            .replace_files(&GraphBatch::default(), &["a.ts"])
            .unwrap();
        assert!(sites(&store, "save").is_empty());
        store.replace_files(&file("c.ts", &[]), &[]).unwrap();
        assert_eq!(sites(&store, "load").len(), 1);
    }
}
