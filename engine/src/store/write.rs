//! Batch writes: a whole graph, or the subgraphs of some files, in one write transaction.
//!
//! Both paths share one algorithm: drop the old nodes of the batch's files (detaching their
//! edges), then insert the new nodes and edges. A full write is the same after clearing
//! every table.
//!
//! A node's outgoing edges are one list, rewritten only with the node's own file. Incoming
//! edges are one entry per edge, keyed `(target, source, kind)`, so adding or removing an
//! edge costs a B-tree update whatever the target's in-degree: an edit next to a hub called
//! from thousands of places does not rewrite the hub's callers.

use std::collections::{HashMap, HashSet};

use redb::{Database, ReadableTable, Table, WriteTransaction};

use super::adjacency::{self, ListView};
use super::crowded::CallableChanges;
use super::overlay::OverlayLog;
use super::search::{TermChanges, refresh_index};
use super::tables::{
    BLOBS, CROWDED, FILES, IDS, IN_EDGES, META, META_GENERATION, META_NEXT_KEY, META_SCHEMA, NODES,
    OUT_EDGES, SEARCH, TERMS, UNRESOLVED, UNRESOLVED_NAMES,
};
use super::unresolved::{remove_unresolved, store_unresolved};
use super::{Generation, SCHEMA_VERSION, StoreStats, decode_u32};
use crate::delta::GraphDelta;
use crate::error::{DbResultExt, StoreError};
use crate::model::EdgeKind;
use crate::record::{EdgeEntry, EdgeSpec, FileEntry, FileRecord, GraphBatch, NodeRecord, NodeView};

pub(super) fn create_tables(txn: &WriteTransaction) -> Result<(), StoreError> {
    txn.open_table(NODES).ctx("create nodes")?;
    txn.open_table(IDS).ctx("create ids")?;
    txn.open_table(FILES).ctx("create files")?;
    txn.open_table(OUT_EDGES).ctx("create out edges")?;
    txn.open_table(IN_EDGES).ctx("create in edges")?;
    txn.open_table(BLOBS).ctx("create blobs")?;
    txn.open_table(UNRESOLVED).ctx("create unresolved")?;
    txn.open_table(UNRESOLVED_NAMES)
        .ctx("create unresolved names")?;
    txn.open_table(TERMS).ctx("create terms")?;
    txn.open_table(CROWDED).ctx("create crowded names")?;
    txn.open_table(SEARCH).ctx("create search")?;
    super::overlay::create(txn)?;
    let mut meta = txn.open_table(META).ctx("create meta")?;
    meta.insert(META_SCHEMA, SCHEMA_VERSION.to_le_bytes().as_slice())
        .ctx("write schema")?;
    if meta.get(META_GENERATION).ctx("read generation")?.is_none() {
        let generation = Generation {
            store: new_store_number(),
            commits: 0,
        };
        meta.insert(META_GENERATION, generation.to_bytes().as_slice())
            .ctx("write generation")?;
    }
    Ok(())
}

pub(super) fn replace_all(db: &Database, batch: &GraphBatch) -> Result<StoreStats, StoreError> {
    let txn = super::begin_write(db)?;
    clear_all(&txn)?;
    let (stats, _) = apply(&txn, batch, &[], false)?;
    commit(txn)?;
    Ok(stats)
}

/// Empties every table of the graph (the metadata stays) and starts node keys from 0.
pub(super) fn clear_all(txn: &WriteTransaction) -> Result<(), StoreError> {
    // By their definitions, not by name strings, so a renamed table is still cleared.
    txn.delete_table(NODES).ctx("clear nodes")?;
    txn.delete_table(IDS).ctx("clear ids")?;
    txn.delete_table(FILES).ctx("clear files")?;
    txn.delete_table(OUT_EDGES).ctx("clear out edges")?;
    txn.delete_table(IN_EDGES).ctx("clear in edges")?;
    txn.delete_table(BLOBS).ctx("clear blobs")?;
    txn.delete_table(UNRESOLVED).ctx("clear unresolved")?;
    txn.delete_table(UNRESOLVED_NAMES)
        .ctx("clear unresolved names")?;
    txn.delete_table(TERMS).ctx("clear terms")?;
    txn.delete_table(CROWDED).ctx("clear crowded names")?;
    txn.delete_table(SEARCH).ctx("clear search")?;
    // The graph file and its overlay describe the graph being replaced.
    super::overlay::clear(txn)?;
    create_tables(txn)?;
    txn.open_table(META)
        .ctx("open meta")?
        .insert(META_NEXT_KEY, 0u32.to_le_bytes().as_slice())
        .ctx("reset keys")?;
    Ok(())
}

/// Replaces the subgraphs of some files; with `track`, also says what changed.
pub(super) fn replace_files(
    db: &Database,
    batch: &GraphBatch,
    removed_files: &[&str],
    (track, late_meta): (bool, LateMeta<'_>),
) -> Result<(StoreStats, Option<GraphDelta>), StoreError> {
    let txn = super::begin_write(db)?;
    let written = apply(&txn, batch, removed_files, track)?;
    if let Some(late_meta) = late_meta {
        let mut meta = txn.open_table(META).ctx("open meta")?;
        for (key, value) in late_meta() {
            meta.insert(key.as_str(), value.as_slice())
                .ctx("write meta")?;
        }
    }
    commit(txn)?;
    Ok(written)
}

/// Metadata made while a batch is written, committed with it (see
/// `Store::replace_files_with_late_meta`).
pub(super) type LateMeta<'m> = Option<&'m mut dyn FnMut() -> Vec<(String, Vec<u8>)>>;

/// Counts the commit in the store's generation, then commits.
pub(super) fn commit(txn: WriteTransaction) -> Result<(), StoreError> {
    let generation = super::read_generation(&txn)?;
    {
        let mut meta = txn.open_table(META).ctx("open meta")?;
        let next = Generation {
            commits: generation.commits.wrapping_add(1),
            ..generation
        };
        meta.insert(META_GENERATION, next.to_bytes().as_slice())
            .ctx("write generation")?;
    }
    txn.commit().ctx("commit")
}

/// A number that differs between store files: the clock and the process id.
fn new_store_number() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    nanos ^ (u64::from(std::process::id()) << 40)
}

pub(super) fn update_file_stamps(
    db: &Database,
    stamps: &[(String, u64, u64)],
) -> Result<(), StoreError> {
    let txn = super::begin_write(db)?;
    {
        let tables = Tables::open(&txn)?;
        let mut files = tables.files;
        let mut buffer = rkyv::util::AlignedVec::<16>::new();
        for (path, size, modified) in stamps {
            let record = match files.get(path.as_str()).ctx("read files")? {
                Some(bytes) => rkyv::from_bytes::<FileRecord, rkyv::rancor::Error>(bytes.value())
                    .map_err(|err| {
                    StoreError::corrupted(format!("file record of {path}"), err)
                })?,
                None => continue,
            };
            let record = FileRecord {
                size: *size,
                modified: *modified,
                ..record
            };
            let bytes = archive(&record, &mut buffer, || format!("file {path}"))?;
            files.insert(path.as_str(), bytes).ctx("write file")?;
        }
    }
    commit(txn)
}

/// The open tables of one write transaction.
pub(super) struct Tables<'t> {
    pub(super) nodes: Table<'t, u32, &'static [u8]>,
    pub(super) ids: Table<'t, &'static str, u32>,
    pub(super) files: Table<'t, &'static str, &'static [u8]>,
    pub(super) out_edges: Table<'t, u32, &'static [u8]>,
    pub(super) in_edges: Table<'t, (u32, u32, u8), ()>,
    pub(super) blobs: Table<'t, &'static str, &'static [u8]>,
    pub(super) unresolved: Table<'t, (&'static str, &'static str), &'static [u8]>,
    pub(super) unresolved_names: Table<'t, &'static str, &'static [u8]>,
    pub(super) terms: Table<'t, &'static str, &'static [u8]>,
    pub(super) crowded: Table<'t, (&'static str, &'static str), u32>,
    pub(super) search: Table<'t, &'static str, &'static [u8]>,
    pub(super) meta: Table<'t, &'static str, &'static [u8]>,
}

impl<'t> Tables<'t> {
    pub(super) fn open(txn: &'t WriteTransaction) -> Result<Tables<'t>, StoreError> {
        Ok(Tables {
            nodes: txn.open_table(NODES).ctx("open nodes")?,
            ids: txn.open_table(IDS).ctx("open ids")?,
            files: txn.open_table(FILES).ctx("open files")?,
            out_edges: txn.open_table(OUT_EDGES).ctx("open out edges")?,
            in_edges: txn.open_table(IN_EDGES).ctx("open in edges")?,
            blobs: txn.open_table(BLOBS).ctx("open blobs")?,
            unresolved: txn.open_table(UNRESOLVED).ctx("open unresolved")?,
            unresolved_names: txn
                .open_table(UNRESOLVED_NAMES)
                .ctx("open unresolved names")?,
            terms: txn.open_table(TERMS).ctx("open terms")?,
            crowded: txn.open_table(CROWDED).ctx("open crowded names")?,
            search: txn.open_table(SEARCH).ctx("open search")?,
            meta: txn.open_table(META).ctx("open meta")?,
        })
    }

    pub(super) fn out_list(&self, key: u32) -> Result<Vec<EdgeEntry>, StoreError> {
        match self.out_edges.get(key).ctx("read adjacency")? {
            Some(bytes) => ListView::parse(bytes.value())?.to_entries(),
            None => Ok(Vec::new()),
        }
    }

    /// `key`'s outgoing list as held in `lists`, read from the table the first time.
    pub(super) fn out_list_in<'l>(
        &self,
        lists: &'l mut HashMap<u32, Vec<EdgeEntry>>,
        key: u32,
    ) -> Result<&'l mut Vec<EdgeEntry>, StoreError> {
        Ok(match lists.entry(key) {
            std::collections::hash_map::Entry::Occupied(list) => list.into_mut(),
            std::collections::hash_map::Entry::Vacant(slot) => slot.insert(self.out_list(key)?),
        })
    }

    /// The `(source, kind)` of every edge into `key`.
    fn incoming(&self, key: u32) -> Result<Vec<(u32, u8)>, StoreError> {
        let mut out = Vec::new();
        for entry in self
            .in_edges
            .range((key, 0u32, 0u8)..=(key, u32::MAX, u8::MAX))
            .ctx("read in edges")?
        {
            let (edge, _) = entry.ctx("read in edges")?;
            let (_, source, kind) = edge.value();
            out.push((source, kind));
        }
        Ok(out)
    }

    fn node(&self, key: u32) -> Result<NodeRecord, StoreError> {
        let bytes = self.nodes.get(key).ctx("read node")?.ok_or_else(|| {
            StoreError::corrupted(
                "files table",
                format!("lists node {key}, which has no record"),
            )
        })?;
        rkyv::from_bytes::<NodeRecord, rkyv::rancor::Error>(bytes.value())
            .map_err(|err| StoreError::corrupted("node record", err))
    }

    fn file(&self, path: &str) -> Result<Option<FileRecord>, StoreError> {
        match self.files.get(path).ctx("read files")? {
            Some(bytes) => rkyv::from_bytes::<FileRecord, rkyv::rancor::Error>(bytes.value())
                .map(Some)
                .map_err(|err| StoreError::corrupted(format!("file record of {path}"), err)),
            None => Ok(None),
        }
    }
}

/// Archives `value` into `buffer` (reused from call to call) and returns the bytes.
pub(super) fn archive<'b, T>(
    value: &T,
    buffer: &'b mut rkyv::util::AlignedVec<16>,
    what: impl FnOnce() -> String,
) -> Result<&'b [u8], StoreError>
where
    T: for<'a> rkyv::Serialize<
            rkyv::api::high::HighSerializer<
                rkyv::util::AlignedVec<16>,
                rkyv::ser::allocator::ArenaHandle<'a>,
                rkyv::rancor::Error,
            >,
        >,
{
    let mut reused = std::mem::take(buffer);
    reused.clear();
    *buffer = rkyv::api::high::to_bytes_in::<_, rkyv::rancor::Error>(value, reused)
        .map_err(|err| StoreError::corrupted(what(), err))?;
    Ok(buffer.as_slice())
}

/// The old side of a delta, gathered while the old nodes are detached.
#[derive(Default)]
struct OldSide {
    /// IDs of the old nodes by key, read before any is removed.
    ids: HashMap<u32, String>,
    nodes: Vec<NodeRecord>,
    edges: Vec<EdgeSpec>,
}

impl OldSide {
    fn id_of(&self, tables: &Tables<'_>, key: u32) -> Result<String, StoreError> {
        if let Some(id) = self.ids.get(&key) {
            return Ok(id.clone());
        }
        let bytes = tables.nodes.get(key).ctx("read node")?.ok_or_else(|| {
            StoreError::corrupted("adjacency list", format!("names node {key}, which is gone"))
        })?;
        Ok(NodeView::from_bytes(bytes.value())?.id().to_owned())
    }

    fn edge(
        &self,
        source: String,
        target: String,
        entry: &EdgeEntry,
    ) -> Result<EdgeSpec, StoreError> {
        let kind = EdgeKind::from_u8(entry.kind).ok_or_else(|| {
            StoreError::corrupted("adjacency list", format!("edge kind {}", entry.kind))
        })?;
        Ok(EdgeSpec {
            source,
            target,
            kind,
            facts: entry.facts.clone(),
        })
    }
}

fn apply(
    txn: &WriteTransaction,
    batch: &GraphBatch,
    removed_files: &[&str],
    track: bool,
) -> Result<(StoreStats, Option<GraphDelta>), StoreError> {
    let mut overlay = OverlayLog::open(txn)?;
    let mut tables = Tables::open(txn)?;
    let mut term_changes = TermChanges::default();
    // The functions and methods the write removes and adds, by name.
    let mut callables = CallableChanges::default();

    // The old nodes of every file the batch rewrites or removes.
    let mut old_keys: Vec<u32> = Vec::new();
    let mut touched_files: HashSet<&str> = HashSet::new();
    let paths = batch
        .files
        .iter()
        .map(|f| f.path.as_str())
        .chain(removed_files.iter().copied());
    for path in paths {
        if !touched_files.insert(path) {
            return Err(StoreError::DuplicateFile(path.to_owned()));
        }
        if let Some(record) = tables.file(path)? {
            old_keys.extend(record.keys);
        }
    }
    let old_set: HashSet<u32> = old_keys.iter().copied().collect();
    // A batch naming one ID twice fails in `insert_record`, as the old nodes are detached
    // first.
    let new_ids: HashSet<&str> = batch.nodes.iter().map(|n| n.id.as_str()).collect();

    // Detach the old nodes. Their outgoing edges go (the batch brings the new ones); edges
    // into them from untouched files stay when the target's ID survives (it keeps its key),
    // and are dropped from their sources' lists otherwise.
    let mut surviving: HashMap<String, u32> = HashMap::new();
    let mut outside_lists: HashMap<u32, Vec<EdgeEntry>> = HashMap::new();
    let mut old = track.then(OldSide::default);
    if let Some(old) = old.as_mut() {
        for &key in &old_keys {
            let record = tables.node(key)?;
            old.ids.insert(key, record.id.clone());
            old.nodes.push(record);
        }
    }
    for &key in &old_keys {
        let record = tables.node(key)?;
        let survives = new_ids.contains(record.id.as_str());
        for entry in tables.out_list(key)? {
            if let Some(old) = old.as_mut() {
                let target = old.id_of(&tables, entry.other)?;
                let edge = old.edge(record.id.clone(), target, &entry)?;
                old.edges.push(edge);
            }
            tables
                .in_edges
                .remove((entry.other, key, entry.kind))
                .ctx("remove in edge")?;
            if let Some(log) = overlay.as_mut() {
                log.in_edge((entry.other, key, entry.kind), false)?;
            }
        }
        if !survives {
            for (source, kind) in tables.incoming(key)? {
                tables
                    .in_edges
                    .remove((key, source, kind))
                    .ctx("remove in edge")?;
                if let Some(log) = overlay.as_mut() {
                    log.in_edge((key, source, kind), false)?;
                }
                if old_set.contains(&source) {
                    continue;
                }
                let list = tables.out_list_in(&mut outside_lists, source)?;
                if let Some(old) = old.as_mut() {
                    for entry in list.iter().filter(|e| e.other == key && e.kind == kind) {
                        let edge =
                            old.edge(old.id_of(&tables, source)?, record.id.clone(), entry)?;
                        old.edges.push(edge);
                    }
                }
                list.retain(|e| !(e.other == key && e.kind == kind));
            }
        }
        tables.out_edges.remove(key).ctx("remove out edges")?;
        tables.nodes.remove(key).ctx("remove node")?;
        tables.ids.remove(record.id.as_str()).ctx("remove id")?;
        if let Some(log) = overlay.as_mut() {
            log.node(key)?;
            log.id(&record.id, None)?;
        }
        term_changes.node(
            key,
            (&record.id, &record.file, &record.name, &record.doc),
            false,
        );
        callables.removed(&record);
        if survives {
            surviving.insert(record.id, key);
        }
    }
    for path in &touched_files {
        remove_unresolved(&mut tables, path)?;
    }
    // A re-written file keeps its blob unless the batch brings a new one.
    for path in removed_files {
        tables.files.remove(*path).ctx("remove file")?;
        tables.blobs.remove(*path).ctx("remove blob")?;
    }

    // Insert the new nodes, reusing the keys of surviving IDs.
    let mut next_key = match tables.meta.get(META_NEXT_KEY).ctx("read meta")? {
        Some(bytes) => {
            decode_u32(bytes.value()).ok_or_else(|| StoreError::corrupted("meta", "next key"))?
        }
        None => 0,
    };
    let mut batch_keys: HashMap<&str, u32> = HashMap::with_capacity(batch.nodes.len());
    let mut file_keys: HashMap<&str, Vec<u32>> = HashMap::new();
    let mut buffer = rkyv::util::AlignedVec::<16>::new();
    for node in &batch.nodes {
        let key = match surviving.get(node.id.as_str()) {
            Some(&key) => key,
            None => {
                let key = next_key;
                next_key = next_key
                    .checked_add(1)
                    .ok_or_else(|| StoreError::corrupted("meta", "node keys exhausted"))?;
                key
            }
        };
        insert_record(&mut tables, key, node, &mut buffer)?;
        if let Some(log) = overlay.as_mut() {
            log.node(key)?;
            log.id(&node.id, Some(key))?;
        }
        term_changes.node(key, (&node.id, &node.file, &node.name, &node.doc), true);
        callables.added(node, key);
        batch_keys.insert(node.id.as_str(), key);
        file_keys.entry(node.file.as_str()).or_default().push(key);
    }
    tables
        .meta
        .insert(META_NEXT_KEY, next_key.to_le_bytes().as_slice())
        .ctx("write meta")?;
    for (key, value) in &batch.meta {
        tables
            .meta
            .insert(key.as_str(), value.as_slice())
            .ctx("write meta")?;
    }

    // Edges: the outgoing lists of batch nodes are new; one incoming entry per edge.
    let mut lists: HashMap<u32, Vec<EdgeEntry>> = HashMap::new();
    for &key in batch_keys.values() {
        lists.entry(key).or_default();
    }
    for edge in &batch.edges {
        let unknown = || StoreError::UnknownNode {
            kind: edge.kind.to_string(),
            source_id: edge.source.clone(),
            target_id: edge.target.clone(),
        };
        let source = *batch_keys.get(edge.source.as_str()).ok_or_else(unknown)?;
        let target = match batch_keys.get(edge.target.as_str()) {
            Some(&key) => key,
            None => tables
                .ids
                .get(edge.target.as_str())
                .ctx("read ids")?
                .map(|k| k.value())
                .ok_or_else(unknown)?,
        };
        let kind = edge.kind.as_u8();
        lists.entry(source).or_default().push(EdgeEntry {
            kind,
            other: target,
            facts: edge.facts.clone(),
        });
        tables
            .in_edges
            .insert((target, source, kind), ())
            .ctx("write in edge")?;
        if let Some(log) = overlay.as_mut() {
            log.in_edge((target, source, kind), true)?;
        }
    }
    for (key, list) in outside_lists {
        if let Some(log) = overlay.as_mut() {
            log.node(key)?;
        }
        lists.insert(key, list);
    }
    write_lists(&mut tables.out_edges, lists, &mut buffer)?;

    for file in &batch.files {
        let keys = file_keys.remove(file.path.as_str()).unwrap_or_default();
        write_file_record(&mut tables, file, keys, &mut buffer)?;
    }
    if let Some((path, _)) = file_keys.into_iter().next() {
        return Err(StoreError::corrupted(
            "batch",
            format!("node of file `{path}`, which the batch does not list"),
        ));
    }
    for (path, blob) in &batch.blobs {
        if !touched_files.contains(path.as_str()) {
            return Err(StoreError::corrupted(
                "batch",
                format!("a blob for `{path}`, which the batch does not list"),
            ));
        }
        tables
            .blobs
            .insert(path.as_str(), blob.as_slice())
            .ctx("write blob")?;
    }
    if let Some((path, _)) = batch
        .unresolved
        .iter()
        .find(|(path, _)| !touched_files.contains(path.as_str()))
    {
        return Err(StoreError::corrupted(
            "batch",
            format!("unresolved calls of `{path}`, which the batch does not list"),
        ));
    }
    store_unresolved(
        &mut tables,
        batch
            .unresolved
            .iter()
            .map(|(path, call)| (path.as_str(), call.clone())),
        &mut buffer,
    )?;
    let touched_terms = term_changes.apply(&mut tables.terms)?;
    refresh_index(&tables.terms, &mut tables.search, &touched_terms)?;
    callables.apply(&tables.terms, &tables.nodes, &mut tables.crowded)?;
    let stats = StoreStats {
        nodes: batch.nodes.len(),
        edges: batch.edges.len(),
        files: batch.files.len(),
    };
    let delta = old.map(|old| {
        GraphDelta::between(
            old.nodes,
            old.edges,
            batch.nodes.clone(),
            batch.edges.clone(),
        )
    });
    Ok((stats, delta))
}

/// Writes one node's record and ID under `key` (its search terms are the caller's: a batch
/// gathers them in a [`TermChanges`], a bulk load indexes them at its commit).
pub(super) fn insert_record(
    tables: &mut Tables<'_>,
    key: u32,
    node: &NodeRecord,
    buffer: &mut rkyv::util::AlignedVec<16>,
) -> Result<(), StoreError> {
    let bytes = archive(node, buffer, || format!("node {}", node.id))?;
    tables.nodes.insert(key, bytes).ctx("write node")?;
    // An ID some node still has (the old nodes of rewritten files were detached first).
    if tables
        .ids
        .insert(node.id.as_str(), key)
        .ctx("write id")?
        .is_some()
    {
        return Err(StoreError::DuplicateId(node.id.clone()));
    }
    Ok(())
}

/// Writes a file's record: its stamps, its nodes' keys and the packages it imports.
pub(super) fn write_file_record(
    tables: &mut Tables<'_>,
    file: &FileEntry,
    keys: Vec<u32>,
    buffer: &mut rkyv::util::AlignedVec<16>,
) -> Result<(), StoreError> {
    let mut external = file.external.clone();
    external.sort();
    external.dedup();
    let record = FileRecord {
        hash: file.hash,
        size: file.size,
        modified: file.modified,
        keys,
        external,
    };
    let bytes = archive(&record, buffer, || format!("file {}", file.path))?;
    tables
        .files
        .insert(file.path.as_str(), bytes)
        .ctx("write file")?;
    Ok(())
}

pub(super) fn write_lists(
    table: &mut Table<'_, u32, &'static [u8]>,
    lists: HashMap<u32, Vec<EdgeEntry>>,
    buffer: &mut rkyv::util::AlignedVec<16>,
) -> Result<(), StoreError> {
    // In key order: a bulk load's lists then append to the table.
    let mut lists: Vec<(u32, Vec<EdgeEntry>)> = lists.into_iter().collect();
    lists.sort_unstable_by_key(|(key, _)| *key);
    for (key, mut entries) in lists {
        if entries.is_empty() {
            table.remove(key).ctx("remove adjacency")?;
            continue;
        }
        entries.sort_by_key(|e| (e.kind, e.other));
        merge_duplicates(&mut entries);
        adjacency::encode(&mut entries, buffer)?;
        table
            .insert(key, buffer.as_slice())
            .ctx("write adjacency")?;
    }
    Ok(())
}

/// Folds entries with the same kind and other end (sorted next to each other) into one, so an
/// edge given twice is stored once with the facts of both.
fn merge_duplicates(entries: &mut Vec<EdgeEntry>) {
    entries.dedup_by(|later, kept| {
        if later.kind != kept.kind || later.other != kept.other {
            return false;
        }
        kept.facts.absorb(std::mem::take(&mut later.facts));
        true
    });
}
