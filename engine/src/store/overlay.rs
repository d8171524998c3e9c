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

use redb::{ReadableTable, ReadableTableMetadata, Table, WriteTransaction};

use super::Generation;
use super::tables::{META, META_GRAPH_FILE, OVERLAY_IDS, OVERLAY_IN, OVERLAY_NODES};
use crate::error::{DbResultExt, StoreError};
use crate::model::EdgeKind;

/// The key an overlay ID has when the node is gone.
const GONE: u32 = u32::MAX;

/// Past this many entries a writer builds a new graph file rather than grow the overlay. A
/// reader loads the overlay whole for each new store state, redb's iteration being most of
/// the cost (about 0.1 µs an entry on the 1M-line synthetic, 2026-11), so the bound keeps a
/// new reader's first answer within a millisecond. The price is the writer's: it rebuilds
/// the graph file each time the edits since the last one pass the bound (about a second of
/// CPU on that synthetic: inline in `tsgraph index`, on a thread of its own in a
/// `LiveProject`), and edits committed while a build runs are kept in the overlay, which may
/// then pass the bound until the next build.
pub const OVERLAY_BOUND: u64 = 4_096;

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

/// The reader's side: the overlay of one store state, in memory. Loading it is what a new
/// reader of a state pays before its first answer, so everything is read into flat, sorted
/// containers in the tables' own order (no hashing, no allocation per entry): the changed IDs'
/// text back to back in one string, found by binary search.
#[derive(Debug, Default)]
pub(crate) struct Overlay {
    /// Keys whose record and outgoing list come from the tables, one bit per key.
    nodes: Vec<u64>,
    /// Each target with incoming changes, ascending, and where its changes start in
    /// `changes` (they run to the next target's start).
    targets: Vec<(u32, u32)>,
    /// Incoming changes, grouped by target: (kind, source, there now).
    changes: Vec<(EdgeKind, u32, bool)>,
    /// IDs added or removed, ascending: where each one's text lies in `id_text`, and the
    /// key it names now, or `None`.
    ids: Vec<(u32, u32, Option<u32>)>,
    id_text: String,
}

impl Overlay {
    /// Reads the overlay whole from a snapshot's tables.
    pub(super) fn load(
        nodes: &impl ReadableTable<u32, u64>,
        incoming: &impl ReadableTable<(u32, u32, u8), (bool, u64)>,
        ids: &impl ReadableTable<&'static str, (u32, u64)>,
    ) -> Result<Overlay, StoreError> {
        let mut overlay = Overlay::default();
        // Keys ascend: the last one sizes the bit set.
        if let Some(last) = nodes.last().ctx("read overlay")? {
            overlay.nodes = vec![0; last.0.value() as usize / 64 + 1];
        }
        for entry in nodes.iter().ctx("read overlay")? {
            let (key, _) = entry.ctx("read overlay")?;
            let key = key.value() as usize;
            overlay.nodes[key / 64] |= 1 << (key % 64);
        }
        overlay
            .changes
            .reserve(incoming.len().ctx("read overlay")? as usize);
        // Entries come by (target, source, kind): a target's changes are consecutive.
        for entry in incoming.iter().ctx("read overlay")? {
            let (edge, change) = entry.ctx("read overlay")?;
            let (target, source, kind) = edge.value();
            let kind = EdgeKind::from_u8(kind)
                .ok_or_else(|| StoreError::corrupted("overlay", format!("edge kind {kind}")))?;
            if overlay
                .targets
                .last()
                .is_none_or(|(last, _)| *last != target)
            {
                overlay.targets.push((target, overlay.changes.len() as u32));
            }
            overlay.changes.push((kind, source, change.value().0));
        }
        // Keys come in ascending order (redb orders `&str` keys by their bytes).
        overlay.ids.reserve(ids.len().ctx("read overlay")? as usize);
        for entry in ids.iter().ctx("read overlay")? {
            let (id, change) = entry.ctx("read overlay")?;
            let (key, _) = change.value();
            let start = overlay.id_text.len();
            overlay.id_text.push_str(id.value());
            let (Ok(start), Ok(end)) = (u32::try_from(start), u32::try_from(overlay.id_text.len()))
            else {
                return Err(StoreError::corrupted("overlay", "IDs past 4 GiB"));
            };
            overlay.ids.push((start, end, (key != GONE).then_some(key)));
        }
        overlay.order_ids();
        Ok(overlay)
    }

    /// Whether node `key`'s record and outgoing list changed since the graph file.
    pub(crate) fn rewrote(&self, key: u32) -> bool {
        let key = key as usize;
        self.nodes
            .get(key / 64)
            .is_some_and(|word| word & (1 << (key % 64)) != 0)
    }

    /// Puts the IDs in the order [`Overlay::id`] searches (the table's order already, as
    /// redb orders `&str` keys by their bytes; checked rather than assumed).
    fn order_ids(&mut self) {
        let text = &self.id_text;
        let of = |&(start, end, _): &(u32, u32, Option<u32>)| {
            text.get(start as usize..end as usize).unwrap_or("")
        };
        if !self.ids.is_sorted_by(|a, b| of(a) <= of(b)) {
            self.ids.sort_by(|a, b| of(a).cmp(of(b)));
        }
    }

    /// What `id` names now, when that changed since the graph file.
    pub(crate) fn id(&self, id: &str) -> Option<Option<u32>> {
        let text = |&(start, end, _): &(u32, u32, Option<u32>)| {
            self.id_text.get(start as usize..end as usize).unwrap_or("")
        };
        let at = self
            .ids
            .binary_search_by(|entry| text(entry).cmp(id))
            .ok()?;
        Some(self.ids[at].2)
    }

    /// The incoming changes of `target`, if any.
    fn changes_of(&self, target: u32) -> Option<&[(EdgeKind, u32, bool)]> {
        let at = self
            .targets
            .binary_search_by_key(&target, |(t, _)| *t)
            .ok()?;
        let start = self.targets[at].1 as usize;
        let end = self
            .targets
            .get(at + 1)
            .map_or(self.changes.len(), |(_, next)| *next as usize);
        Some(&self.changes[start..end])
    }

    /// `entries` (the file's incoming list of `target`, sorted by kind and source) with the
    /// overlay's changes to it, still sorted; `None` when nothing changed.
    pub(crate) fn merge_incoming(
        &self,
        target: u32,
        entries: impl FnOnce() -> Result<Vec<(EdgeKind, u32)>, StoreError>,
    ) -> Result<Option<Vec<(EdgeKind, u32)>>, StoreError> {
        let Some(changes) = self.changes_of(target) else {
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
        Overlay {
            targets: vec![(7, 0)],
            changes,
            ..Overlay::default()
        }
    }

    #[test]
    fn changed_ids_are_found_by_their_whole_text() {
        let mut overlay = Overlay::default();
        // Out of order on purpose: the overlay orders them.
        for (id, key) in [
            ("src/a.ts:f", Some(3)),
            ("src/a.ts", None),
            ("src/a.ts:f.g", Some(9)),
        ] {
            let start = overlay.id_text.len() as u32;
            overlay.id_text.push_str(id);
            overlay.ids.push((start, overlay.id_text.len() as u32, key));
        }
        overlay.order_ids();
        assert_eq!(overlay.id("src/a.ts:f"), Some(Some(3)));
        assert_eq!(overlay.id("src/a.ts:f.g"), Some(Some(9)));
        assert_eq!(overlay.id("src/a.ts"), Some(None), "removed");
        for unchanged in ["src/a.ts:", "src/a.ts:f.", "src/b.ts", ""] {
            assert_eq!(overlay.id(unchanged), None, "{unchanged}");
        }
    }

    #[test]
    fn rewritten_keys_are_found_and_no_others() {
        let mut overlay = Overlay {
            nodes: vec![0; 2],
            ..Overlay::default()
        };
        for key in [0usize, 63, 64, 100] {
            overlay.nodes[key / 64] |= 1 << (key % 64);
        }
        for key in [0, 63, 64, 100] {
            assert!(overlay.rewrote(key), "{key}");
        }
        for key in [1, 62, 65, 127, 128, u32::MAX] {
            assert!(!overlay.rewrote(key), "{key}");
        }
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
