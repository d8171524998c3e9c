//! The overlay: what the graph changed since its graph file was built, so that readers keep
//! reading the mapped file between rebuilds of it.
//!
//! An update (`write::apply`) records, in three small redb tables committed with it, the keys
//! whose record or outgoing list it rewrote, each incoming entry it added or removed, and each
//! ID it added or removed — with the commit that did it. Per node, not per list: an edge into
//! a hub is one entry, never a copy of the hub's list. A reader loads the overlay into memory
//! once per store state ([`Overlay::load`], shared by the snapshots of that state) and reads
//! a rewritten node's record and list from the tables, and merges a target's incoming changes
//! into the file's list. A new graph file takes in every change up to the commit it was built
//! at; the commit that names it drops those entries and keeps later ones.
//!
//! Nothing is recorded while no graph file is named (a store never given one, or just cleared
//! by a full index): there is nothing to overlay.

use std::collections::{HashMap, HashSet};

use redb::{ReadableTable, ReadableTableMetadata, Table, WriteTransaction};

use super::Generation;
use super::tables::{META, META_GRAPH_FILE, OVERLAY_IDS, OVERLAY_IN, OVERLAY_NODES};
use crate::error::{DbResultExt, StoreError};
use crate::model::EdgeKind;

/// The key an overlay ID has when the node is gone.
const GONE: u32 = u32::MAX;

/// Past this many entries a writer builds a new graph file rather than grow the overlay (a
/// reader loads the overlay whole for each new store state).
pub const OVERLAY_BOUND: u64 = 65_536;

/// The writer's side: records one update's changes.
pub(super) struct OverlayLog<'t> {
    nodes: Table<'t, u32, u64>,
    incoming: Table<'t, (u32, u32, u8), (bool, u64)>,
    ids: Table<'t, &'static str, (u32, u64)>,
    /// The commit this update will be.
    commit: u64,
}

impl<'t> OverlayLog<'t> {
    /// The log of the update in `txn`, or `None` when no graph file is named (nothing to
    /// overlay).
    pub(super) fn open(txn: &'t WriteTransaction) -> Result<Option<OverlayLog<'t>>, StoreError> {
        let meta = txn.open_table(META).ctx("open meta")?;
        if meta.get(META_GRAPH_FILE).ctx("read meta")?.is_none() {
            return Ok(None);
        }
        drop(meta);
        let generation = super::read_generation(txn)?;
        Ok(Some(OverlayLog {
            nodes: txn.open_table(OVERLAY_NODES).ctx("open overlay")?,
            incoming: txn.open_table(OVERLAY_IN).ctx("open overlay")?,
            ids: txn.open_table(OVERLAY_IDS).ctx("open overlay")?,
            commit: generation.commits.wrapping_add(1),
        }))
    }

    /// Node `key`'s record or outgoing list was written or removed.
    pub(super) fn node(&mut self, key: u32) -> Result<(), StoreError> {
        self.nodes
            .insert(key, self.commit)
            .ctx("write overlay")
            .map(drop)
    }

    /// `id` now names `key` (`None`: no node).
    pub(super) fn id(&mut self, id: &str, key: Option<u32>) -> Result<(), StoreError> {
        self.ids
            .insert(id, (key.unwrap_or(GONE), self.commit))
            .ctx("write overlay")
            .map(drop)
    }

    /// The edge `(target, source, kind)` is now there (`present`) or not.
    pub(super) fn in_edge(
        &mut self,
        edge: (u32, u32, u8),
        present: bool,
    ) -> Result<(), StoreError> {
        self.incoming
            .insert(edge, (present, self.commit))
            .ctx("write overlay")
            .map(drop)
    }
}

/// Drops the overlay entries a graph file built at `built` takes in (those of commits up to
/// it), in the transaction that names the file.
pub(super) fn prune(txn: &WriteTransaction, built: Generation) -> Result<(), StoreError> {
    let upto = built.commits;
    txn.open_table(OVERLAY_NODES)
        .ctx("open overlay")?
        .retain(|_, commit| commit > upto)
        .ctx("prune overlay")?;
    txn.open_table(OVERLAY_IN)
        .ctx("open overlay")?
        .retain(|_, (_, commit)| commit > upto)
        .ctx("prune overlay")?;
    txn.open_table(OVERLAY_IDS)
        .ctx("open overlay")?
        .retain(|_, (_, commit)| commit > upto)
        .ctx("prune overlay")?;
    Ok(())
}

/// Empties the overlay and forgets the graph file (a full index replaces the graph).
pub(super) fn clear(txn: &WriteTransaction) -> Result<(), StoreError> {
    txn.delete_table(OVERLAY_NODES).ctx("clear overlay")?;
    txn.delete_table(OVERLAY_IN).ctx("clear overlay")?;
    txn.delete_table(OVERLAY_IDS).ctx("clear overlay")?;
    create(txn)?;
    txn.open_table(META)
        .ctx("open meta")?
        .remove(META_GRAPH_FILE)
        .ctx("forget the graph file")?;
    Ok(())
}

pub(super) fn create(txn: &WriteTransaction) -> Result<(), StoreError> {
    txn.open_table(OVERLAY_NODES).ctx("create overlay")?;
    txn.open_table(OVERLAY_IN).ctx("create overlay")?;
    txn.open_table(OVERLAY_IDS).ctx("create overlay")?;
    Ok(())
}

/// How many entries the overlay of `txn`'s store holds.
pub(super) fn len_in(
    nodes: &impl ReadableTableMetadata,
    incoming: &impl ReadableTableMetadata,
    ids: &impl ReadableTableMetadata,
) -> Result<u64, StoreError> {
    Ok(nodes.len().ctx("read overlay")?
        + incoming.len().ctx("read overlay")?
        + ids.len().ctx("read overlay")?)
}

/// The reader's side: the overlay of one store state, in memory.
#[derive(Debug, Default)]
pub(crate) struct Overlay {
    /// Keys whose record and outgoing list come from the tables.
    nodes: HashSet<u32>,
    /// Per target, its incoming changes: (kind, source, there now).
    incoming: HashMap<u32, Vec<(EdgeKind, u32, bool)>>,
    /// IDs added or removed: the key now, or `None`.
    ids: HashMap<String, Option<u32>>,
}

impl Overlay {
    /// Reads the overlay whole from a snapshot's tables.
    pub(super) fn load(
        nodes: &impl ReadableTable<u32, u64>,
        incoming: &impl ReadableTable<(u32, u32, u8), (bool, u64)>,
        ids: &impl ReadableTable<&'static str, (u32, u64)>,
    ) -> Result<Overlay, StoreError> {
        let mut overlay = Overlay::default();
        for entry in nodes.iter().ctx("read overlay")? {
            let (key, _) = entry.ctx("read overlay")?;
            overlay.nodes.insert(key.value());
        }
        for entry in incoming.iter().ctx("read overlay")? {
            let (edge, change) = entry.ctx("read overlay")?;
            let (target, source, kind) = edge.value();
            let kind = EdgeKind::from_u8(kind)
                .ok_or_else(|| StoreError::corrupted("overlay", format!("edge kind {kind}")))?;
            overlay
                .incoming
                .entry(target)
                .or_default()
                .push((kind, source, change.value().0));
        }
        for entry in ids.iter().ctx("read overlay")? {
            let (id, change) = entry.ctx("read overlay")?;
            let (key, _) = change.value();
            overlay
                .ids
                .insert(id.value().to_owned(), (key != GONE).then_some(key));
        }
        Ok(overlay)
    }

    /// Whether node `key`'s record and outgoing list changed since the graph file.
    pub(crate) fn rewrote(&self, key: u32) -> bool {
        self.nodes.contains(&key)
    }

    /// What `id` names now, when that changed since the graph file.
    pub(crate) fn id(&self, id: &str) -> Option<Option<u32>> {
        self.ids.get(id).copied()
    }

    /// `entries` (the file's incoming list of `target`, sorted by kind and source) with the
    /// overlay's changes to it, still sorted; `None` when nothing changed.
    pub(crate) fn merge_incoming(
        &self,
        target: u32,
        entries: impl FnOnce() -> Result<Vec<(EdgeKind, u32)>, StoreError>,
    ) -> Result<Option<Vec<(EdgeKind, u32)>>, StoreError> {
        let Some(changes) = self.incoming.get(&target) else {
            return Ok(None);
        };
        let mut entries = entries()?;
        for &(kind, source, present) in changes {
            match (entries.binary_search(&(kind, source)), present) {
                (Err(at), true) => entries.insert(at, (kind, source)),
                (Ok(at), false) => {
                    entries.remove(at);
                }
                _ => {}
            }
        }
        Ok(Some(entries))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn overlay_with(changes: Vec<(EdgeKind, u32, bool)>) -> Overlay {
        let mut overlay = Overlay::default();
        overlay.incoming.insert(7, changes);
        overlay
    }

    #[test]
    fn incoming_changes_merge_into_the_files_list_in_order() {
        let file = vec![
            (EdgeKind::Calls, 1),
            (EdgeKind::Calls, 5),
            (EdgeKind::UsesType, 2),
        ];
        let overlay = overlay_with(vec![
            (EdgeKind::Calls, 3, true),
            (EdgeKind::Calls, 5, false),
            (EdgeKind::Contains, 9, true),
            (EdgeKind::UsesType, 4, false),
            (EdgeKind::Calls, 1, true),
        ]);
        let merged = overlay
            .merge_incoming(7, || Ok(file.clone()))
            .expect("merge")
            .expect("changed");
        assert_eq!(
            merged,
            [
                (EdgeKind::Contains, 9),
                (EdgeKind::Calls, 1),
                (EdgeKind::Calls, 3),
                (EdgeKind::UsesType, 2),
            ]
        );
        assert!(
            overlay
                .merge_incoming(8, || panic!("untouched: not read"))
                .expect("merge")
                .is_none()
        );
    }
}
