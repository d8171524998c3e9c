//! Read snapshots: zero-copy access to node records and adjacency lists. Every read goes
//! through the store's panic boundary.

use std::sync::{Arc, OnceLock};

use redb::{
    AccessGuard, ReadOnlyTable, ReadTransaction, ReadableDatabase, ReadableTable,
    ReadableTableMetadata,
};

use super::adjacency::{EdgeRef, ListView, OpenedList};
use super::guard::{Boundary, Quiet};
use super::mapped::{GraphFileName, InEntries, MappedGraph, Prefetch, Stage};
use super::overlay::Overlay;
use super::search::{ADDED_KEY, FST_KEY, Postings, REMOVED_KEY, TermSet, TermsKeys};
use super::steps::Steps;
use super::tables::{
    BLOBS, FILES, IDS, IN_EDGES, META, NODES, OUT_EDGES, OVERLAY_IDS, OVERLAY_IN, OVERLAY_NODES,
    SEARCH, TERMS, UNRESOLVED,
};
use super::tables::{CROWDED, InChange, InEdge};
use crate::error::{DbResultExt, StoreError};
use crate::model::{EdgeKind, NodeKey};
use crate::record::{
    ArchivedFileRecord, ArchivedUnresolvedCall, ArchivedUnresolvedList, NodeRecord, NodeView,
    UnresolvedCall,
};

/// A table opened when first read.
type Lazy<T> = OnceLock<Quiet<T>>;

/// The tables of a snapshot, each opened from its read transaction when first read.
#[derive(Default)]
struct Tables {
    nodes: Lazy<ReadOnlyTable<u32, &'static [u8]>>,
    ids: Lazy<ReadOnlyTable<&'static str, u32>>,
    files: Lazy<ReadOnlyTable<&'static str, &'static [u8]>>,
    out_edges: Lazy<ReadOnlyTable<u32, &'static [u8]>>,
    in_edges: Lazy<ReadOnlyTable<(u32, u32, u8), ()>>,
    blobs: Lazy<ReadOnlyTable<&'static str, &'static [u8]>>,
    unresolved: Lazy<ReadOnlyTable<(&'static str, &'static str), &'static [u8]>>,
    terms: Lazy<ReadOnlyTable<&'static str, &'static [u8]>>,
    crowded: Lazy<ReadOnlyTable<(&'static str, &'static str), u32>>,
    search: Lazy<ReadOnlyTable<&'static str, &'static [u8]>>,
    meta: Lazy<ReadOnlyTable<&'static str, &'static [u8]>>,
    overlay_nodes: Lazy<ReadOnlyTable<u32, u64>>,
    overlay_in: Lazy<ReadOnlyTable<InEdge, InChange>>,
    overlay_ids: Lazy<ReadOnlyTable<&'static str, (u32, u64)>>,
}

impl Tables {
    /// How many were opened (tests: a query served by the graph file opens few).
    #[cfg(test)]
    fn opened(&self) -> usize {
        [
            self.nodes.get().is_some(),
            self.ids.get().is_some(),
            self.files.get().is_some(),
            self.out_edges.get().is_some(),
            self.in_edges.get().is_some(),
            self.blobs.get().is_some(),
            self.unresolved.get().is_some(),
            self.terms.get().is_some(),
            self.crowded.get().is_some(),
            self.search.get().is_some(),
            self.meta.get().is_some(),
            self.overlay_nodes.get().is_some(),
            self.overlay_in.get().is_some(),
            self.overlay_ids.get().is_some(),
        ]
        .iter()
        .filter(|open| **open)
        .count()
    }
}

/// A consistent, read-only view of the graph. Holding it never blocks the writer; a write
/// committed after it was taken is not seen.
pub struct Snapshot {
    /// The read transaction the tables below are opened from, each when first read: a
    /// query served by the graph file opens one or two of them, and each open reads a page.
    txn: Quiet<ReadTransaction>,
    tables: Tables,
    /// The graph file serving this snapshot's store state, with the overlay of what changed
    /// since it was built, when there is one: node records, adjacency and IDs are read from
    /// the file, except where the overlay sends a read to the tables above.
    mapped: Option<(Arc<MappedGraph>, Arc<Overlay>)>,
    boundary: Boundary,
}

impl Snapshot {
    pub(super) fn new(
        db: &impl ReadableDatabase,
        boundary: Boundary,
    ) -> Result<Snapshot, StoreError> {
        boundary.run("begin read", || {
            let txn = Quiet::new(db.begin_read().ctx("begin read")?);
            Ok(Snapshot {
                txn,
                tables: Tables::default(),
                mapped: None,
                boundary: boundary.clone(),
            })
        })
    }

    /// This snapshot reading node records, adjacency and IDs from `mapped`, a graph file of
    /// its store, through `overlay`, the changes since the file was built.
    pub(super) fn with_mapped(
        mut self,
        mapped: Arc<MappedGraph>,
        overlay: Arc<Overlay>,
    ) -> Snapshot {
        self.mapped = Some((mapped, overlay));
        self
    }

    /// The overlay of this snapshot's store state, read whole from its tables.
    pub(super) fn load_overlay(&self) -> Result<Overlay, StoreError> {
        self.read("read overlay", || {
            Overlay::load(
                self.overlay_nodes_table()?,
                self.overlay_in_table()?,
                self.overlay_ids_table()?,
            )
        })
    }

    /// How many entries the overlay holds.
    pub(super) fn overlay_len(&self) -> Result<u64, StoreError> {
        self.read("read overlay", || {
            super::overlay::len_in(
                self.overlay_nodes_table()?,
                self.overlay_in_table()?,
                self.overlay_ids_table()?,
            )
        })
    }

    /// Whether reads come from a graph file (`false`: from the store's tables).
    pub fn is_mapped(&self) -> bool {
        self.mapped.is_some()
    }

    /// The graph file the store names, if any (whether or not it serves this state).
    pub(super) fn graph_file(&self) -> Result<Option<GraphFileName>, StoreError> {
        Ok(self
            .meta(super::tables::META_GRAPH_FILE)?
            .and_then(|bytes| GraphFileName::from_bytes(&bytes)))
    }

    /// One more than the largest node key the store has handed out: every node key is below
    /// it (the bound of a table indexed by key).
    pub fn key_bound(&self) -> Result<u32, StoreError> {
        match self.meta(super::tables::META_NEXT_KEY)? {
            Some(bytes) => {
                super::decode_u32(&bytes).ok_or_else(|| StoreError::corrupted("meta", "next key"))
            }
            None => Ok(0),
        }
    }

    /// Every node record, ascending by key (for the graph file's writer).
    pub(super) fn scan_nodes(
        &self,
        each: impl FnMut(u32, &[u8]) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        self.scan("read nodes", Self::nodes_table, each)
    }

    /// Every outgoing list, ascending by source key.
    pub(super) fn scan_out_lists(
        &self,
        each: impl FnMut(u32, &[u8]) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        self.scan("read out edges", Self::out_edges_table, each)
    }

    /// Every incoming entry as (target, source, kind), in the table's order.
    pub(super) fn scan_in_edges(
        &self,
        mut each: impl FnMut(u32, u32, u8) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        self.scan(
            "read in edges",
            Self::in_edges_table,
            |(target, source, kind), ()| each(target, source, kind),
        )
    }

    /// Every node ID with its key, ascending by ID.
    pub(super) fn scan_ids(
        &self,
        each: impl FnMut(&str, u32) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        self.scan("read ids", Self::ids_table, each)
    }

    /// Every entry of `table`, in its order, inside the panic boundary.
    fn scan<K: redb::Key + 'static, V: redb::Value + 'static>(
        &self,
        what: &str,
        table: fn(&Snapshot) -> Result<&ReadOnlyTable<K, V>, StoreError>,
        mut each: impl for<'v> FnMut(K::SelfType<'v>, V::SelfType<'v>) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        self.read(what, || {
            for entry in table(self)?.iter().ctx(what)? {
                let (key, value) = entry.ctx(what)?;
                each(key.value(), value.value())?;
            }
            Ok(())
        })
    }

    /// Runs one read inside the panic boundary, naming the store file in its error.
    fn read<T>(
        &self,
        what: &str,
        f: impl FnOnce() -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        read_in(&self.boundary, what, f)
    }

    /// The key of the node with the public `id`.
    pub fn key_of(&self, id: &str) -> Result<Option<NodeKey>, StoreError> {
        if let Some((mapped, overlay)) = &self.mapped {
            let key = match overlay.id(id) {
                Some(now) => now,
                // Inside the boundary: the fst crate may panic on a damaged map.
                None => self.read("read ids", || mapped.key_of(id))?,
            };
            return Ok(key.map(NodeKey));
        }
        self.read("read ids", || {
            Ok(self
                .ids_table()?
                .get(id)
                .ctx("read ids")?
                .map(|key| NodeKey(key.value())))
        })
    }

    /// The stored record of `key`, or `None` if there is no such node.
    pub fn node(&self, key: NodeKey) -> Result<Option<NodeGuard<'_>>, StoreError> {
        if let Some((mapped, overlay)) = &self.mapped
            && !overlay.rewrote(key.0)
        {
            return Ok(mapped.node(key.0)?.map(|bytes| NodeGuard {
                bytes: NodeBytes::Mapped(bytes),
                boundary: &self.boundary,
            }));
        }
        self.read("read node", || {
            Ok(self
                .nodes_table()?
                .get(key.0)
                .ctx("read node")?
                .map(|guard| NodeGuard {
                    bytes: NodeBytes::Stored(Quiet::new(guard)),
                    boundary: &self.boundary,
                }))
        })
    }

    /// The keys of every node whose simple name is `name`, ascending: the nodes under its
    /// lowercased search term (every node's lowercased name is one) whose name is exactly
    /// `name`. The term also holds nodes named otherwise in case, and nodes whose dotted
    /// path lowercases to it; the store keeps no second index of exact names.
    pub fn keys_named(&self, name: &str) -> Result<Vec<NodeKey>, StoreError> {
        let mut keys = Vec::new();
        self.each_named(name, |key, _| keys.push(key))?;
        Ok(keys)
    }

    /// Calls `each` with the key and record of every node named exactly `name`, found
    /// through the name's lowercased term.
    fn each_named(
        &self,
        name: &str,
        mut each: impl FnMut(NodeKey, &NodeView<'_>),
    ) -> Result<(), StoreError> {
        for key in self.term_keys(&name.to_lowercase())? {
            if let Some(guard) = self.node(key)? {
                let view = guard.view()?;
                if view.name() == name {
                    each(key, &view);
                }
            }
        }
        Ok(())
    }

    /// Every distinct simple name, ascending (a scan of every node record).
    pub fn names(&self) -> Result<Vec<String>, StoreError> {
        self.read("read nodes", || {
            let mut names = std::collections::BTreeSet::new();
            for entry in self.nodes_table()?.iter().ctx("read nodes")? {
                let (_, record) = entry.ctx("read nodes")?;
                let view = NodeView::from_bytes(record.value())?;
                if !names.contains(view.name()) {
                    names.insert(view.name().to_owned());
                }
            }
            Ok(names.into_iter().collect())
        })
    }

    /// The search index's set of terms (lowercased simple names and dotted symbol paths);
    /// empty for a store that was never written.
    pub fn search_terms(&self) -> Result<TermSet, StoreError> {
        self.read("read search index", || {
            let read = |key| -> Result<Option<Vec<u8>>, StoreError> {
                Ok(self
                    .search_table()?
                    .get(key)
                    .ctx("read search index")?
                    .map(|bytes| bytes.value().to_vec()))
            };
            let added = read(ADDED_KEY)?;
            let removed = read(REMOVED_KEY)?;
            TermSet::read(read(FST_KEY)?, added.as_deref(), removed.as_deref())
        })
    }

    /// The functions and methods named exactly `name` — what an unresolved call of the name
    /// may reach —: how many there are and the IDs of the first `listed`, ascending. A name
    /// many share is one range of the crowded names' table (`crowded.rs`); the few of another
    /// are found through its search term.
    ///
    /// ```
    /// use tsgraph_engine::{GraphBatch, NodeKind, NodeRecord, Store};
    /// let dir = tempfile::tempdir().unwrap();
    /// let store = Store::open_or_create(dir.path().join("g.redb")).unwrap();
    /// let mut batch = GraphBatch::default();
    /// batch.nodes.push(NodeRecord::new("a.ts:save", NodeKind::Function, "save", "a.ts", 1, 2));
    /// batch.nodes.push(NodeRecord::new("a.ts:Save", NodeKind::Class, "Save", "a.ts", 3, 4));
    /// batch.add_file("a.ts", 0);
    /// store.replace_all(&batch).unwrap();
    /// let (count, first) = store.snapshot().unwrap().callables_named("save", 5).unwrap();
    /// assert_eq!((count, first), (1, vec!["a.ts:save".to_owned()]));
    /// ```
    pub fn callables_named(
        &self,
        name: &str,
        listed: usize,
    ) -> Result<(usize, Vec<String>), StoreError> {
        let crowded = self.read("read crowded names", || {
            super::crowded::first_of(self.crowded_table()?, name, listed)
        })?;
        if let Some(found) = crowded {
            return Ok(found);
        }
        let mut ids = Vec::new();
        self.each_named(name, |_, node| {
            if super::crowded::is_callable(node.kind()) {
                ids.push(node.id().to_owned());
            }
        })?;
        ids.sort_unstable();
        let count = ids.len();
        ids.truncate(listed);
        Ok((count, ids))
    }

    /// The keys of the nodes each of `terms` finds, as [`Snapshot::term_keys`] gives them, one
    /// list per term in their order. Terms in ascending byte order (as [`TermSet::matching`]
    /// gives them) that lie close together in the term table — the terms of a prefix — are
    /// read in one walk over it rather than one lookup each; the walk gives way to lookups
    /// once it passes over many terms not asked for.
    ///
    /// ```
    /// use tsgraph_engine::{GraphBatch, NodeKind, NodeRecord, Store};
    /// let dir = tempfile::tempdir().unwrap();
    /// let store = Store::open_or_create(dir.path().join("g.redb")).unwrap();
    /// let mut batch = GraphBatch::default();
    /// batch.nodes.push(NodeRecord::new("a.ts:save", NodeKind::Function, "save", "a.ts", 1, 2));
    /// batch.nodes.push(NodeRecord::new("a.ts:saveAll", NodeKind::Function, "saveAll", "a.ts", 3, 4));
    /// batch.add_file("a.ts", 0);
    /// store.replace_all(&batch).unwrap();
    /// let snapshot = store.snapshot().unwrap();
    /// let terms = ["save".to_owned(), "saveall".to_owned(), "saved".to_owned()];
    /// let found = snapshot.terms_keys(&terms).unwrap();
    /// assert_eq!(found.of(1), snapshot.term_keys("saveall").unwrap().as_slice());
    /// assert!(found.of(2).is_empty());
    /// ```
    pub fn terms_keys(&self, terms: &[String]) -> Result<TermsKeys, StoreError> {
        let mut found = TermsKeys::default();
        let mut at = 0;
        if terms.is_sorted() {
            self.read("read search terms", || {
                walk_terms(self.terms_table()?, terms, &mut found, &mut at)
            })?;
        }
        // Whatever the walk left: one lookup each.
        for term in &terms[at..] {
            found.extend(self.term_keys(term)?);
            found.end_term();
        }
        Ok(found)
    }

    /// The keys of the nodes found by the search term `term` (lowercase), ascending.
    pub fn term_keys(&self, term: &str) -> Result<Vec<NodeKey>, StoreError> {
        self.read("read search terms", || {
            match self.terms_table()?.get(term).ctx("read search terms")? {
                Some(postings) => Ok(Postings::parse(postings.value())?
                    .keys()
                    .map(NodeKey)
                    .collect()),
                None => Ok(Vec::new()),
            }
        })
    }

    /// Every node key, ascending.
    pub fn node_keys(&self) -> Result<Vec<NodeKey>, StoreError> {
        self.read("read nodes", || {
            let count = self.nodes_table()?.len().ctx("count nodes")?;
            let mut keys = Vec::with_capacity(usize::try_from(count).unwrap_or(0));
            for entry in self.nodes_table()?.iter().ctx("read nodes")? {
                let (key, _) = entry.ctx("read nodes")?;
                keys.push(NodeKey(key.value()));
            }
            Ok(keys)
        })
    }

    /// Number of nodes.
    pub fn node_count(&self) -> Result<u64, StoreError> {
        self.read("count nodes", || {
            self.nodes_table()?.len().ctx("count nodes")
        })
    }

    /// Every indexed file path with its content hash, ascending by path.
    pub fn files(&self) -> Result<Vec<(String, u64)>, StoreError> {
        Ok(self
            .file_stamps()?
            .into_iter()
            .map(|stamp| (stamp.path, stamp.hash))
            .collect())
    }

    /// Every indexed file with its hash, the size and modification time it was indexed at,
    /// and the packages outside the project it imports; ascending by path.
    pub fn file_stamps(&self) -> Result<Vec<FileStamp>, StoreError> {
        self.read("read files", || {
            let mut files = Vec::new();
            for entry in self.files_table()?.iter().ctx("read files")? {
                let (path, record) = entry.ctx("read files")?;
                let record = access_file(record.value())?;
                files.push(FileStamp {
                    path: path.value().to_owned(),
                    hash: record.hash.to_native(),
                    size: record.size.to_native(),
                    modified: record.modified.to_native(),
                    external: record
                        .external
                        .iter()
                        .map(|p| p.as_str().to_owned())
                        .collect(),
                });
            }
            Ok(files)
        })
    }

    /// The blob the writer keeps with a file (the indexer's summary of it).
    pub fn blob(&self, path: &str) -> Result<Option<Vec<u8>>, StoreError> {
        self.read_blob(path, <[u8]>::to_vec)
    }

    /// `read` over the blob the writer keeps with a file, in place (no copy): for a reader
    /// that turns it into something else at once, as restoring summaries does. `read` runs
    /// inside the panic boundary, with the page held: a panic in it counts as damage to the
    /// store, as one in redb does, so it must meet bad bytes with a value, not a panic.
    pub fn read_blob<T>(
        &self,
        path: &str,
        read: impl FnOnce(&[u8]) -> T,
    ) -> Result<Option<T>, StoreError> {
        self.read("read blobs", || {
            Ok(self
                .blobs_table()?
                .get(path)
                .ctx("read blobs")?
                .map(|guard| read(guard.value())))
        })
    }

    /// The unresolved calls of `name` (the called name: `save` for `this.repo.save()`), in
    /// every file, ascending by file.
    pub fn unresolved_calls(
        &self,
        name: &str,
    ) -> Result<Vec<(String, UnresolvedCall)>, StoreError> {
        let mut out = Vec::new();
        self.each_unresolved_call(name, |file, call| {
            let call = rkyv::deserialize::<UnresolvedCall, rkyv::rancor::Error>(call)
                .map_err(|err| StoreError::corrupted(format!("unresolved calls of {file}"), err))?;
            out.push((file.to_owned(), call));
            Ok(())
        })?;
        Ok(out)
    }

    /// How many call sites left unresolved have the called name `name` (what
    /// [`Snapshot::unresolved_calls`] would list, counted in place).
    pub fn unresolved_call_count(&self, name: &str) -> Result<usize, StoreError> {
        Ok(self.unresolved_call_sample(name, 0)?.0)
    }

    /// How many call sites left unresolved have the called name `name`, and the first `max`
    /// of them (ascending by file) as owned records: one pass, only those few deserialized.
    pub fn unresolved_call_sample(
        &self,
        name: &str,
        max: usize,
    ) -> Result<(usize, Vec<(String, UnresolvedCall)>), StoreError> {
        let mut count = 0;
        let mut first = Vec::new();
        self.each_unresolved_call(name, |file, call| {
            count += 1;
            if first.len() < max {
                let call = rkyv::deserialize::<UnresolvedCall, rkyv::rancor::Error>(call).map_err(
                    |err| StoreError::corrupted(format!("unresolved calls of {file}"), err),
                )?;
                first.push((file.to_owned(), call));
            }
            Ok(())
        })?;
        Ok((count, first))
    }

    /// Calls `each` with the file and the record, read in place, of every unresolved call of
    /// `name`, ascending by file.
    fn each_unresolved_call(
        &self,
        name: &str,
        mut each: impl FnMut(&str, &ArchivedUnresolvedCall) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        self.read("read unresolved calls", || {
            // The sites of `name` are the range of keys starting with it, one list per file.
            for entry in self
                .unresolved_table()?
                .range((name, "")..)
                .ctx("read unresolved")?
            {
                let (key, list) = entry.ctx("read unresolved")?;
                let (called, file) = key.value();
                if called != name {
                    break;
                }
                let list =
                    rkyv::access::<ArchivedUnresolvedList, rkyv::rancor::Error>(list.value())
                        .map_err(|err| {
                            StoreError::corrupted(format!("unresolved calls of {file}"), err)
                        })?;
                for call in list.calls.iter() {
                    if call.name != name {
                        return Err(StoreError::corrupted(
                            format!("unresolved calls of {file}"),
                            format!("a call of `{}` listed under `{name}`", call.name),
                        ));
                    }
                    each(file, call)?;
                }
            }
            Ok(())
        })
    }

    /// The keys of the nodes of the file at `path`, the file node first.
    pub fn file_keys(&self, path: &str) -> Result<Option<Vec<NodeKey>>, StoreError> {
        self.read("read files", || {
            let Some(guard) = self.files_table()?.get(path).ctx("read files")? else {
                return Ok(None);
            };
            let record = access_file(guard.value())?;
            Ok(Some(
                record
                    .keys
                    .iter()
                    .map(|key| NodeKey(key.to_native()))
                    .collect(),
            ))
        })
    }

    /// For a loop reading `part` of the keys `key_at` gives in order, now at `at`: asks the
    /// processor to start loading what the loop reads a few keys later, so that those loads
    /// overlap the work in between instead of stalling it one by one. A hint for reads from
    /// the graph file (a node the delta rewrote is read from redb; its hint is wasted, not
    /// wrong); it changes no answer.
    ///
    /// ```
    /// # use tsgraph_engine::{NodeKey, Prefetch, Snapshot, StoreError};
    /// fn records(snapshot: &Snapshot, keys: &[NodeKey]) -> Result<usize, StoreError> {
    ///     let mut found = 0;
    ///     for (at, key) in keys.iter().enumerate() {
    ///         snapshot.prefetch_ahead(Prefetch::Record, at, |i| keys.get(i).copied());
    ///         found += usize::from(snapshot.node(*key)?.is_some());
    ///     }
    ///     Ok(found)
    /// }
    /// ```
    pub fn prefetch_ahead(
        &self,
        part: Prefetch,
        at: usize,
        key_at: impl Fn(usize) -> Option<NodeKey>,
    ) {
        /// How far ahead the bytes are asked for, and the index slots that locate them
        /// (further still, since the bytes need the slot read): a few nodes' work, so the
        /// loads arrive in time, and no more than stays in the cache meanwhile.
        const BYTES_AHEAD: usize = 8;
        const SLOT_AHEAD: usize = 16;
        let Some((mapped, _)) = &self.mapped else {
            return;
        };
        if let Some(key) = key_at(at + SLOT_AHEAD) {
            mapped.prefetch(key.0, part, Stage::Slot);
        }
        if let Some(key) = key_at(at + BYTES_AHEAD) {
            mapped.prefetch(key.0, part, Stage::Bytes);
        }
    }

    /// The outgoing adjacency of `key` (with edge facts).
    pub fn out_edges(&self, key: NodeKey) -> Result<AdjacencyGuard<'_>, StoreError> {
        if let Some((mapped, overlay)) = &self.mapped
            && !overlay.rewrote(key.0)
        {
            return Ok(AdjacencyGuard {
                guard: Adjacency::OutgoingMapped(mapped.out_list(key.0)?),
                boundary: &self.boundary,
            });
        }
        self.read("read out edges", || {
            Ok(AdjacencyGuard {
                guard: Adjacency::Outgoing(
                    self.out_edges_table()?
                        .get(key.0)
                        .ctx("read out edges")?
                        .map(Quiet::new),
                ),
                boundary: &self.boundary,
            })
        })
    }

    /// The incoming adjacency of `key`: kind and source (the facts live with the source; a
    /// graph file's entries also keep a call's resolution, which [`Steps`] hands out).
    pub fn in_edges(&self, key: NodeKey) -> Result<AdjacencyGuard<'_>, StoreError> {
        if let Some((mapped, overlay)) = &self.mapped {
            let entries = mapped.in_list(key.0)?;
            let merged = overlay.merge_incoming(key.0, || entries.iter().collect())?;
            return Ok(AdjacencyGuard {
                guard: match merged {
                    Some(merged) => Adjacency::Incoming(merged, Some((entries, overlay))),
                    None => Adjacency::IncomingMapped(entries, overlay),
                },
                boundary: &self.boundary,
            });
        }
        self.read("read in edges", || {
            let mut entries = Vec::new();
            for entry in self
                .in_edges_table()?
                .range((key.0, 0u32, 0u8)..=(key.0, u32::MAX, u8::MAX))
                .ctx("read in edges")?
            {
                let (edge, _) = entry.ctx("read in edges")?;
                let (_, source, kind) = edge.value();
                let kind = EdgeKind::from_u8(kind).ok_or_else(|| {
                    StoreError::corrupted("in edges", format!("edge kind {kind}"))
                })?;
                entries.push((kind, source));
            }
            // The same order as outgoing lists: by kind, then the other end.
            entries.sort_unstable();
            Ok(AdjacencyGuard {
                guard: Adjacency::Incoming(entries, None),
                boundary: &self.boundary,
            })
        })
    }

    /// Reads and validates every record of every table (a store that could not be verified
    /// page by page is checked this way before it is trusted).
    pub fn validate_everything(&self) -> Result<(), StoreError> {
        self.read("validate", || {
            for entry in self.nodes_table()?.iter().ctx("read nodes")? {
                let (_, record) = entry.ctx("read nodes")?;
                NodeView::from_bytes(record.value())?;
            }
            for entry in self.out_edges_table()?.iter().ctx("read out edges")? {
                let (_, list) = entry.ctx("read out edges")?;
                for edge in ListView::parse(list.value())?.iter() {
                    edge.view()?;
                }
            }
            for entry in self.in_edges_table()?.iter().ctx("read in edges")? {
                entry.ctx("read in edges")?;
            }
            for entry in self.files_table()?.iter().ctx("read files")? {
                let (_, record) = entry.ctx("read files")?;
                access_file(record.value())?;
            }
            for entry in self.ids_table()?.iter().ctx("read ids")? {
                entry.ctx("read ids")?;
            }
            for entry in self.terms_table()?.iter().ctx("read search terms")? {
                let (_, postings) = entry.ctx("read search terms")?;
                Postings::parse(postings.value())?;
            }
            Ok(())
        })
    }

    /// A metadata value.
    pub fn meta(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        self.read("read meta", || {
            Ok(self
                .meta_table()?
                .get(key)
                .ctx("read meta")?
                .map(|v| v.value().to_vec()))
        })
    }

    /// Which state of which store this snapshot sees (a store written before generations
    /// were kept reads as the default).
    pub fn generation(&self) -> Result<super::Generation, StoreError> {
        match self.meta(super::tables::META_GENERATION)? {
            Some(bytes) => super::Generation::from_bytes(&bytes)
                .ok_or_else(|| StoreError::corrupted("meta", "generation")),
            None => Ok(super::Generation::default()),
        }
    }
}

/// Each table of a snapshot, opened from its transaction when first read (inside the panic
/// boundary) and kept for the snapshot's life.
impl Snapshot {
    fn nodes_table(&self) -> Result<&ReadOnlyTable<u32, &'static [u8]>, StoreError> {
        self.opened(&self.tables.nodes, "open nodes", |txn| {
            txn.open_table(NODES)
        })
    }

    fn ids_table(&self) -> Result<&ReadOnlyTable<&'static str, u32>, StoreError> {
        self.opened(&self.tables.ids, "open ids", |txn| txn.open_table(IDS))
    }

    fn files_table(&self) -> Result<&ReadOnlyTable<&'static str, &'static [u8]>, StoreError> {
        self.opened(&self.tables.files, "open files", |txn| {
            txn.open_table(FILES)
        })
    }

    fn out_edges_table(&self) -> Result<&ReadOnlyTable<u32, &'static [u8]>, StoreError> {
        self.opened(&self.tables.out_edges, "open out edges", |txn| {
            txn.open_table(OUT_EDGES)
        })
    }

    fn in_edges_table(&self) -> Result<&ReadOnlyTable<(u32, u32, u8), ()>, StoreError> {
        self.opened(&self.tables.in_edges, "open in edges", |txn| {
            txn.open_table(IN_EDGES)
        })
    }

    fn blobs_table(&self) -> Result<&ReadOnlyTable<&'static str, &'static [u8]>, StoreError> {
        self.opened(&self.tables.blobs, "open blobs", |txn| {
            txn.open_table(BLOBS)
        })
    }

    fn unresolved_table(
        &self,
    ) -> Result<&ReadOnlyTable<(&'static str, &'static str), &'static [u8]>, StoreError> {
        self.opened(&self.tables.unresolved, "open unresolved", |txn| {
            txn.open_table(UNRESOLVED)
        })
    }

    fn terms_table(&self) -> Result<&ReadOnlyTable<&'static str, &'static [u8]>, StoreError> {
        self.opened(&self.tables.terms, "open search terms", |txn| {
            txn.open_table(TERMS)
        })
    }

    pub(super) fn crowded_table(
        &self,
    ) -> Result<&ReadOnlyTable<(&'static str, &'static str), u32>, StoreError> {
        self.opened(&self.tables.crowded, "open crowded names", |txn| {
            txn.open_table(CROWDED)
        })
    }

    fn search_table(&self) -> Result<&ReadOnlyTable<&'static str, &'static [u8]>, StoreError> {
        self.opened(&self.tables.search, "open search index", |txn| {
            txn.open_table(SEARCH)
        })
    }

    fn meta_table(&self) -> Result<&ReadOnlyTable<&'static str, &'static [u8]>, StoreError> {
        self.opened(&self.tables.meta, "open meta", |txn| txn.open_table(META))
    }

    fn overlay_nodes_table(&self) -> Result<&ReadOnlyTable<u32, u64>, StoreError> {
        self.opened(&self.tables.overlay_nodes, "open overlay", |txn| {
            txn.open_table(OVERLAY_NODES)
        })
    }

    fn overlay_in_table(&self) -> Result<&ReadOnlyTable<InEdge, InChange>, StoreError> {
        self.opened(&self.tables.overlay_in, "open overlay", |txn| {
            txn.open_table(OVERLAY_IN)
        })
    }

    fn overlay_ids_table(&self) -> Result<&ReadOnlyTable<&'static str, (u32, u64)>, StoreError> {
        self.opened(&self.tables.overlay_ids, "open overlay", |txn| {
            txn.open_table(OVERLAY_IDS)
        })
    }

    /// How many of the snapshot's tables were opened.
    #[cfg(test)]
    pub(super) fn opened_tables(&self) -> usize {
        self.tables.opened()
    }

    /// The table in `cell`, opened by `open` the first time. Two threads may both open it;
    /// one copy is kept.
    fn opened<'s, T, E>(
        &'s self,
        cell: &'s Lazy<T>,
        what: &str,
        open: impl FnOnce(&ReadTransaction) -> Result<T, E>,
    ) -> Result<&'s T, StoreError>
    where
        E: Into<redb::Error>,
    {
        if let Some(table) = cell.get() {
            return Ok(table);
        }
        // Every caller reads inside the panic boundary already (`read`, `scan`).
        let table = open(&self.txn).ctx(what)?;
        let _ = cell.set(Quiet::new(table));
        Ok(cell.get().expect("set above or by another thread"))
    }
}

fn read_in<T>(
    boundary: &Boundary,
    what: &str,
    f: impl FnOnce() -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    boundary.run(what, f)
}

fn access_file(bytes: &[u8]) -> Result<&ArchivedFileRecord, StoreError> {
    rkyv::access::<ArchivedFileRecord, rkyv::rancor::Error>(bytes)
        .map_err(|err| StoreError::corrupted("file record", err))
}

/// Keeps the bytes of one node record alive; [`NodeGuard::view`] reads them in place.
pub struct NodeGuard<'a> {
    bytes: NodeBytes<'a>,
    boundary: &'a Boundary,
}

/// A node record in a redb page or in the mapped graph file.
enum NodeBytes<'a> {
    Stored(Quiet<AccessGuard<'a, &'static [u8]>>),
    Mapped(&'a [u8]),
}

impl NodeGuard<'_> {
    /// Views the record without copying: validated first when it comes from a redb page; a
    /// graph file's records were validated when the file was written, and the file's checksum
    /// verified before it was trusted (the trust model in `mapped/mod.rs`).
    ///
    /// Only a redb page is read inside the panic boundary: the boundary is for redb's own
    /// panics, and a mapped record is read by tsgraph's code alone (its cost was most of what
    /// an answer spent per record).
    pub fn view(&self) -> Result<NodeView<'_>, StoreError> {
        match &self.bytes {
            NodeBytes::Stored(guard) => read_in(self.boundary, "read node", || {
                NodeView::from_bytes(guard.value())
            }),
            // SAFETY: a mapped record was validated by the file's writer and is covered by the
            // body checksum `MappedGraph::open` verified; graph files never change in place.
            NodeBytes::Mapped(bytes) => self
                .boundary
                .outside(unsafe { NodeView::from_trusted_bytes(bytes) }),
        }
    }

    fn bytes(&self) -> &[u8] {
        match &self.bytes {
            NodeBytes::Stored(guard) => guard.value(),
            NodeBytes::Mapped(bytes) => bytes,
        }
    }

    /// The record as an owned value (for a caller that keeps it past the snapshot, such as
    /// a graph delta or a comparison of two stores).
    pub fn record(&self) -> Result<NodeRecord, StoreError> {
        read_in(self.boundary, "read node", || {
            rkyv::from_bytes::<NodeRecord, rkyv::rancor::Error>(self.bytes())
                .map_err(|err| StoreError::corrupted("node record", err))
        })
    }
}

/// Keeps the bytes of one adjacency list alive; [`AdjacencyGuard::edges`] reads them in place.
pub struct AdjacencyGuard<'a> {
    guard: Adjacency<'a>,
    boundary: &'a Boundary,
}

/// An outgoing list as stored (facts included), in a redb page or in the graph file, or the
/// incoming entries of one node, gathered from redb or in the graph file.
enum Adjacency<'a> {
    Outgoing(Option<Quiet<AccessGuard<'a, &'static [u8]>>>),
    OutgoingMapped(Option<&'a [u8]>),
    /// Gathered from redb, or the file's entries merged with the overlay's changes (then
    /// with the file's entries and the overlay, whose call resolutions still hold for the
    /// sources the overlay did not rewrite).
    Incoming(Vec<(EdgeKind, u32)>, Option<(InEntries<'a>, &'a Overlay)>),
    /// With the overlay, which says whose outgoing lists (and so call resolutions) changed
    /// since the file.
    IncomingMapped(InEntries<'a>, &'a Overlay),
}

impl<'a> AdjacencyGuard<'a> {
    /// Checks the list and iterates its entries, sorted by (kind, other end). The checks
    /// cover kinds, order and sizes; an edge's call sites and names are checked by
    /// [`EdgeRef::view`].
    pub fn edges(&self) -> Result<impl ExactSizeIterator<Item = EdgeRef<'_>>, StoreError> {
        let stored = match &self.guard {
            Adjacency::Outgoing(Some(guard)) => read_in(self.boundary, "read adjacency", || {
                ListView::parse(guard.value())
            })?,
            Adjacency::OutgoingMapped(Some(bytes)) => {
                self.boundary.outside(ListView::parse(bytes))?
            }
            _ => ListView::EMPTY,
        };
        let gathered: &[(EdgeKind, u32)] = match &self.guard {
            Adjacency::Incoming(entries, _) => entries,
            _ => &[],
        };
        let mapped = match &self.guard {
            Adjacency::IncomingMapped(entries, _) => {
                // Checked whole before the first is handed out, as a stored list is.
                for entry in entries.iter() {
                    self.boundary.outside(entry)?;
                }
                *entries
            }
            _ => InEntries::EMPTY,
        };
        Ok(Edges {
            outgoing: stored.iter(),
            incoming: gathered
                .iter()
                .map(|&(kind, other)| EdgeRef::incoming(kind, other)),
            mapped: mapped.iter().map(|entry| {
                let (kind, other) = entry.unwrap_or((EdgeKind::Contains, 0));
                EdgeRef::incoming(kind, other)
            }),
        })
    }

    /// The edge of `kind` to (outgoing) or from (incoming) `other`, if the list has it, by
    /// binary search: only that edge is checked, the list's order is trusted.
    pub fn find(&self, kind: EdgeKind, other: NodeKey) -> Result<Option<EdgeRef<'_>>, StoreError> {
        match &self.guard {
            Adjacency::Incoming(entries, _) => Ok(entries
                .binary_search(&(kind, other.0))
                .ok()
                .map(|_| EdgeRef::incoming(kind, other.0))),
            Adjacency::IncomingMapped(entries, _) => Ok(self
                .boundary
                .outside(entries.find(kind, other.0))?
                .map(|_| EdgeRef::incoming(kind, other.0))),
            Adjacency::Outgoing(None) | Adjacency::OutgoingMapped(None) => Ok(None),
            Adjacency::Outgoing(Some(guard)) => read_in(self.boundary, "read adjacency", || {
                OpenedList::open(guard.value())?.find(kind, other)
            }),
            Adjacency::OutgoingMapped(Some(bytes)) => self
                .boundary
                .outside(OpenedList::open(bytes).and_then(|list| list.find(kind, other))),
        }
    }

    /// The entries as an iterator that owns what it reads (see [`Steps`]): checked as
    /// [`AdjacencyGuard::edges`] checks them, without their facts but a call's resolution.
    pub fn into_steps(self) -> Result<Steps<'a>, StoreError> {
        // Only a redb page is read inside the panic boundary (see `NodeGuard::view`).
        match self.guard {
            Adjacency::OutgoingMapped(Some(bytes)) => self
                .boundary
                .outside(ListView::parse(bytes).map(Steps::listed)),
            Adjacency::Outgoing(Some(guard)) => read_in(self.boundary, "read adjacency", || {
                Ok(Steps::copied(ListView::parse(guard.value())?))
            }),
            Adjacency::Outgoing(None) | Adjacency::OutgoingMapped(None) => Ok(Steps::empty()),
            Adjacency::Incoming(entries, file) => Ok(Steps::gathered(entries, file)),
            Adjacency::IncomingMapped(entries, overlay) => {
                for entry in entries.iter() {
                    self.boundary.outside(entry)?;
                }
                Ok(Steps::mapped(entries, overlay))
            }
        }
    }
}

/// The edges of one adjacency, of any form (at most one of the three is not empty).
struct Edges<O, I, M> {
    outgoing: O,
    incoming: I,
    mapped: M,
}

impl<'a, O, I, M> Iterator for Edges<O, I, M>
where
    O: ExactSizeIterator<Item = EdgeRef<'a>>,
    I: ExactSizeIterator<Item = EdgeRef<'a>>,
    M: ExactSizeIterator<Item = EdgeRef<'a>>,
{
    type Item = EdgeRef<'a>;
    fn next(&mut self) -> Option<EdgeRef<'a>> {
        self.outgoing
            .next()
            .or_else(|| self.incoming.next())
            .or_else(|| self.mapped.next())
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let len = self.outgoing.len() + self.incoming.len() + self.mapped.len();
        (len, Some(len))
    }
}

impl<'a, O, I, M> ExactSizeIterator for Edges<O, I, M>
where
    O: ExactSizeIterator<Item = EdgeRef<'a>>,
    I: ExactSizeIterator<Item = EdgeRef<'a>>,
    M: ExactSizeIterator<Item = EdgeRef<'a>>,
{
}

/// A file as the store last indexed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileStamp {
    /// Path relative to the project root.
    pub path: String,
    /// Content hash.
    pub hash: u64,
    /// Size in bytes.
    pub size: u64,
    /// Modification time (nanoseconds since the epoch, 0 when unknown).
    pub modified: u64,
    /// Packages outside the project the file imports.
    pub external: Vec<String>,
}

/// Terms of the table not asked for that a walk passes over, per term asked for, before it
/// gives way to lookups (a lookup costs a walk down the tree; a step along it, far less).
const WALK_SLACK: usize = 8;

/// Reads the lists of `terms` (ascending) from `table` in one walk from the first, into
/// `found`, advancing `at` past each term read; stops early when the terms lie too far apart.
fn walk_terms(
    table: &ReadOnlyTable<&'static str, &'static [u8]>,
    terms: &[String],
    found: &mut TermsKeys,
    at: &mut usize,
) -> Result<(), StoreError> {
    let Some(first) = terms.first() else {
        return Ok(());
    };
    let mut passed = 0usize;
    for entry in table.range(first.as_str()..).ctx("read search terms")? {
        let (term, postings) = entry.ctx("read search terms")?;
        let term = term.value();
        // Terms asked for that the table does not hold find nothing.
        while terms.get(*at).is_some_and(|wanted| wanted.as_str() < term) {
            found.end_term();
            *at += 1;
        }
        let Some(wanted) = terms.get(*at) else {
            return Ok(());
        };
        if wanted == term {
            found.extend(Postings::parse(postings.value())?.keys().map(NodeKey));
            found.end_term();
            *at += 1;
        } else {
            passed += 1;
            if passed > WALK_SLACK.saturating_mul(*at + 1) {
                return Ok(());
            }
        }
    }
    // Past the table's last term: the rest find nothing.
    while *at < terms.len() {
        found.end_term();
        *at += 1;
    }
    Ok(())
}
