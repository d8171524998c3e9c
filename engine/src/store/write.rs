//! Batch writes: a whole graph, or the subgraphs of some files, in one write transaction.
//!
//! Both paths share one algorithm: drop the old nodes of the batch's files (detaching their
//! edges from nodes of other files), then insert the new nodes and edges. A full write is the
//! same after clearing every table.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};

use redb::{Database, ReadableTable, Table, WriteTransaction};

use super::tables::{
    FILES, IDS, IN_EDGES, META, META_NEXT_KEY, META_SCHEMA, NAMES, NODES, OUT_EDGES,
};
use super::{SCHEMA_VERSION, StoreStats, decode_u32};
use crate::error::{DbResultExt, StoreError};
use crate::record::{Adjacency, EdgeEntry, EdgeFacts, FileRecord, GraphBatch, NodeRecord};

pub(super) fn create_tables(txn: &WriteTransaction) -> Result<(), StoreError> {
    txn.open_table(NODES).ctx("create nodes")?;
    txn.open_table(IDS).ctx("create ids")?;
    txn.open_multimap_table(NAMES).ctx("create names")?;
    txn.open_table(FILES).ctx("create files")?;
    txn.open_table(OUT_EDGES).ctx("create out edges")?;
    txn.open_table(IN_EDGES).ctx("create in edges")?;
    let mut meta = txn.open_table(META).ctx("create meta")?;
    meta.insert(META_SCHEMA, SCHEMA_VERSION.to_le_bytes().as_slice())
        .ctx("write schema")?;
    Ok(())
}

pub(super) fn replace_all(db: &Database, batch: &GraphBatch) -> Result<StoreStats, StoreError> {
    let txn = super::begin_write(db)?;
    // By their definitions, not by name strings, so a renamed table is still cleared.
    txn.delete_table(NODES).ctx("clear nodes")?;
    txn.delete_table(IDS).ctx("clear ids")?;
    txn.delete_table(FILES).ctx("clear files")?;
    txn.delete_table(OUT_EDGES).ctx("clear out edges")?;
    txn.delete_table(IN_EDGES).ctx("clear in edges")?;
    txn.delete_multimap_table(NAMES).ctx("clear names")?;
    create_tables(&txn)?;
    txn.open_table(META)
        .ctx("open meta")?
        .insert(META_NEXT_KEY, 0u32.to_le_bytes().as_slice())
        .ctx("reset keys")?;
    let stats = apply(&txn, batch, &[])?;
    txn.commit().ctx("commit")?;
    Ok(stats)
}

pub(super) fn replace_files(
    db: &Database,
    batch: &GraphBatch,
    removed_files: &[&str],
) -> Result<StoreStats, StoreError> {
    let txn = super::begin_write(db)?;
    let stats = apply(&txn, batch, removed_files)?;
    txn.commit().ctx("commit")?;
    Ok(stats)
}

/// The open tables of one write transaction.
struct Tables<'t> {
    nodes: Table<'t, u32, &'static [u8]>,
    ids: Table<'t, &'static str, u32>,
    names: redb::MultimapTable<'t, &'static str, u32>,
    files: Table<'t, &'static str, &'static [u8]>,
    out_edges: Table<'t, u32, &'static [u8]>,
    in_edges: Table<'t, u32, &'static [u8]>,
    meta: Table<'t, &'static str, &'static [u8]>,
}

impl<'t> Tables<'t> {
    fn open(txn: &'t WriteTransaction) -> Result<Tables<'t>, StoreError> {
        Ok(Tables {
            nodes: txn.open_table(NODES).ctx("open nodes")?,
            ids: txn.open_table(IDS).ctx("open ids")?,
            names: txn.open_multimap_table(NAMES).ctx("open names")?,
            files: txn.open_table(FILES).ctx("open files")?,
            out_edges: txn.open_table(OUT_EDGES).ctx("open out edges")?,
            in_edges: txn.open_table(IN_EDGES).ctx("open in edges")?,
            meta: txn.open_table(META).ctx("open meta")?,
        })
    }

    fn adjacency(
        table: &Table<'t, u32, &'static [u8]>,
        key: u32,
    ) -> Result<Vec<EdgeEntry>, StoreError> {
        match table.get(key).ctx("read adjacency")? {
            Some(bytes) => rkyv::from_bytes::<Adjacency, rkyv::rancor::Error>(bytes.value())
                .map(|list| list.entries)
                .map_err(|err| StoreError::corrupted("adjacency list", err)),
            None => Ok(Vec::new()),
        }
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
}

/// Adjacency lists loaded for change, written back at the end.
#[derive(Default)]
struct Lists {
    out: HashMap<u32, Vec<EdgeEntry>>,
    inn: HashMap<u32, Vec<EdgeEntry>>,
}

impl Lists {
    fn out_of<'a>(
        &'a mut self,
        tables: &Tables<'_>,
        key: u32,
    ) -> Result<&'a mut Vec<EdgeEntry>, StoreError> {
        Ok(match self.out.entry(key) {
            Entry::Occupied(entry) => entry.into_mut(),
            Entry::Vacant(entry) => entry.insert(Tables::adjacency(&tables.out_edges, key)?),
        })
    }

    fn in_of<'a>(
        &'a mut self,
        tables: &Tables<'_>,
        key: u32,
    ) -> Result<&'a mut Vec<EdgeEntry>, StoreError> {
        Ok(match self.inn.entry(key) {
            Entry::Occupied(entry) => entry.into_mut(),
            Entry::Vacant(entry) => entry.insert(Tables::adjacency(&tables.in_edges, key)?),
        })
    }
}

fn apply(
    txn: &WriteTransaction,
    batch: &GraphBatch,
    removed_files: &[&str],
) -> Result<StoreStats, StoreError> {
    let mut tables = Tables::open(txn)?;
    let mut lists = Lists::default();

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
        if let Some(bytes) = tables.files.get(path).ctx("read files")? {
            let record = rkyv::from_bytes::<FileRecord, rkyv::rancor::Error>(bytes.value())
                .map_err(|err| StoreError::corrupted(format!("file record of {path}"), err))?;
            old_keys.extend(record.keys);
        }
    }
    let old_set: HashSet<u32> = old_keys.iter().copied().collect();
    let new_ids: HashSet<&str> = batch.nodes.iter().map(|n| n.id.as_str()).collect();
    if new_ids.len() != batch.nodes.len() {
        let mut seen = HashSet::new();
        let dup = batch.nodes.iter().find(|n| !seen.insert(n.id.as_str()));
        return Err(StoreError::DuplicateId(
            dup.map(|n| n.id.clone()).unwrap_or_default(),
        ));
    }

    // Detach the old nodes. Incoming edges from untouched files survive when the target's ID
    // survives (it keeps its key); everything else that pointed at them is dropped.
    let mut surviving: HashMap<String, u32> = HashMap::new();
    let mut kept_incoming: HashMap<u32, Vec<EdgeEntry>> = HashMap::new();
    for &key in &old_keys {
        let record = tables.node(key)?;
        let survives = new_ids.contains(record.id.as_str());
        for entry in Tables::adjacency(&tables.out_edges, key)? {
            if !old_set.contains(&entry.other) {
                lists
                    .in_of(&tables, entry.other)?
                    .retain(|e| !(e.other == key && e.kind == entry.kind));
            }
        }
        for entry in Tables::adjacency(&tables.in_edges, key)? {
            if old_set.contains(&entry.other) {
                continue;
            }
            if survives {
                kept_incoming.entry(key).or_default().push(entry);
            } else {
                lists
                    .out_of(&tables, entry.other)?
                    .retain(|e| !(e.other == key && e.kind == entry.kind));
            }
        }
        tables.out_edges.remove(key).ctx("remove out edges")?;
        tables.in_edges.remove(key).ctx("remove in edges")?;
        tables.nodes.remove(key).ctx("remove node")?;
        tables.ids.remove(record.id.as_str()).ctx("remove id")?;
        tables
            .names
            .remove(record.name.as_str(), key)
            .ctx("remove name")?;
        lists.out.remove(&key);
        lists.inn.remove(&key);
        if survives {
            surviving.insert(record.id, key);
        }
    }
    for path in removed_files {
        tables.files.remove(*path).ctx("remove file")?;
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
                if tables.ids.get(node.id.as_str()).ctx("read ids")?.is_some() {
                    return Err(StoreError::DuplicateId(node.id.clone()));
                }
                let key = next_key;
                next_key = next_key
                    .checked_add(1)
                    .ok_or_else(|| StoreError::corrupted("meta", "node keys exhausted"))?;
                key
            }
        };
        buffer.clear();
        buffer = rkyv::api::high::to_bytes_in::<_, rkyv::rancor::Error>(node, buffer)
            .map_err(|err| StoreError::corrupted(format!("node {}", node.id), err))?;
        tables
            .nodes
            .insert(key, buffer.as_slice())
            .ctx("write node")?;
        tables.ids.insert(node.id.as_str(), key).ctx("write id")?;
        tables
            .names
            .insert(node.name.as_str(), key)
            .ctx("write name")?;
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

    // Edges: outgoing lists of batch nodes are new; incoming lists start from what survived.
    for (key, entries) in kept_incoming {
        lists.inn.insert(key, entries);
    }
    for &key in batch_keys.values() {
        lists.out.entry(key).or_default();
        lists.inn.entry(key).or_default();
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
        lists.out_of(&tables, source)?.push(EdgeEntry {
            kind,
            other: target,
            facts: edge.facts.clone(),
        });
        lists.in_of(&tables, target)?.push(EdgeEntry {
            kind,
            other: source,
            facts: EdgeFacts::default(),
        });
    }
    write_lists(&mut tables.out_edges, lists.out, &mut buffer)?;
    write_lists(&mut tables.in_edges, lists.inn, &mut buffer)?;

    for file in &batch.files {
        let record = FileRecord {
            hash: file.hash,
            keys: file_keys.remove(file.path.as_str()).unwrap_or_default(),
        };
        buffer.clear();
        buffer = rkyv::api::high::to_bytes_in::<_, rkyv::rancor::Error>(&record, buffer)
            .map_err(|err| StoreError::corrupted(format!("file {}", file.path), err))?;
        tables
            .files
            .insert(file.path.as_str(), buffer.as_slice())
            .ctx("write file")?;
    }
    if let Some((path, _)) = file_keys.into_iter().next() {
        return Err(StoreError::corrupted(
            "batch",
            format!("node of file `{path}`, which the batch does not list"),
        ));
    }
    Ok(StoreStats {
        nodes: batch.nodes.len(),
        edges: batch.edges.len(),
        files: batch.files.len(),
    })
}

fn write_lists(
    table: &mut Table<'_, u32, &'static [u8]>,
    lists: HashMap<u32, Vec<EdgeEntry>>,
    buffer: &mut rkyv::util::AlignedVec<16>,
) -> Result<(), StoreError> {
    for (key, mut entries) in lists {
        if entries.is_empty() {
            table.remove(key).ctx("remove adjacency")?;
            continue;
        }
        entries.sort_by_key(|e| (e.kind, e.other));
        merge_duplicates(&mut entries);
        let list = Adjacency { entries };
        let mut bytes = std::mem::take(buffer);
        bytes.clear();
        bytes = rkyv::api::high::to_bytes_in::<_, rkyv::rancor::Error>(&list, bytes)
            .map_err(|err| StoreError::corrupted("adjacency list", err))?;
        table.insert(key, bytes.as_slice()).ctx("write adjacency")?;
        *buffer = bytes;
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
        let later = std::mem::take(&mut later.facts);
        kept.facts.count = kept.facts.count.saturating_add(later.count);
        kept.facts.sites.extend(later.sites);
        kept.facts.sites.sort_unstable();
        kept.facts.sites.dedup();
        for name in later.names {
            if !kept.facts.names.contains(&name) {
                kept.facts.names.push(name);
            }
        }
        kept.facts.type_only &= later.type_only;
        true
    });
}
