//! A whole graph written in parts: the bulk path of a full index. [`Store::replace_all`] needs
//! the graph in memory at once, with every edge naming its ends by ID string; at millions of
//! lines that batch alone costs hundreds of megabytes. A [`Loader`] takes the nodes first (and
//! gives back their keys), then each group of files with its edges named by key, so the
//! writer holds one group at a time. It is still one transaction: readers see the old graph
//! until [`Loader::commit`], and a loader dropped unfinished leaves the store as it was.

use std::collections::{BTreeSet, HashMap};

use redb::{ReadableTable, WriteTransaction};

use super::search::rebuild_fst;
use super::tables::META_NEXT_KEY;
use super::write::{
    Tables, clear_all, commit, insert_node, write_file_record, write_lists, write_unresolved,
};
use super::{Store, StoreStats};
use crate::error::{DbResultExt, StoreError};
use crate::record::{EdgeEntry, FileEntry, NodeRecord, UnresolvedCall};

/// One file of a [`Loader`] part: its entry, the keys [`Loader::add_nodes`] gave its nodes,
/// its blob and its unresolved call sites.
#[derive(Debug, Clone, Default)]
pub struct LoadedFile {
    /// The file's path, stamps and external imports.
    pub entry: FileEntry,
    /// Its nodes' keys.
    pub keys: Vec<u32>,
    /// The indexer's opaque summary of the file, if any.
    pub blob: Option<Vec<u8>>,
    /// Its unresolved call sites.
    pub unresolved: Vec<UnresolvedCall>,
}

/// Writes a whole new graph in parts, in one transaction (see [`Store::load`]).
///
/// ```
/// use tsgraph_engine::{EdgeEntry, EdgeKind, FileEntry, LoadedFile, NodeKind, NodeRecord, Store};
///
/// let dir = tempfile::tempdir().unwrap();
/// let store = Store::open_or_create(dir.path().join("graph.redb")).unwrap();
/// let mut loader = store.load().unwrap();
/// let first = loader
///     .add_nodes(&[
///         NodeRecord::new("a.ts", NodeKind::File, "a.ts", "a.ts", 1, 3),
///         NodeRecord::new("a.ts:run", NodeKind::Function, "run", "a.ts", 1, 3),
///     ])
///     .unwrap();
/// let file = LoadedFile {
///     entry: FileEntry { path: "a.ts".into(), ..FileEntry::default() },
///     keys: vec![first, first + 1],
///     ..LoadedFile::default()
/// };
/// let contains = EdgeEntry { kind: EdgeKind::Contains.as_u8(), other: first + 1, facts: Default::default() };
/// loader.add_files(&[file], vec![(first, contains)]).unwrap();
/// let stats = loader.commit(&[]).unwrap();
/// assert_eq!((stats.nodes, stats.edges, stats.files), (2, 1, 1));
/// ```
pub struct Loader<'s> {
    store: &'s Store,
    txn: WriteTransaction,
    written: Written,
}

/// What a loader has written so far, and its serialisation buffer.
struct Written {
    /// The key the next node gets (the count of nodes so far).
    next_key: u32,
    stats: StoreStats,
    buffer: rkyv::util::AlignedVec<16>,
}

impl Store {
    /// Starts replacing the whole graph with one written in parts ([`Loader`]): every node
    /// first, then the files with their edges by key. Holds the write transaction until
    /// [`Loader::commit`]; dropping the loader instead leaves the store as it was.
    pub fn load(&self) -> Result<Loader<'_>, StoreError> {
        let db = self.writer()?;
        let txn = self.run("write", || {
            let txn = super::begin_write(db)?;
            clear_all(&txn)?;
            Ok(txn)
        })?;
        Ok(Loader {
            store: self,
            txn,
            written: Written {
                next_key: 0,
                stats: StoreStats::default(),
                buffer: rkyv::util::AlignedVec::new(),
            },
        })
    }
}

impl Loader<'_> {
    /// Runs `f` over the transaction's open tables, inside the store's panic boundary.
    fn write<T>(
        &mut self,
        f: impl FnOnce(&mut Tables<'_>, &mut Written) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let Loader {
            store,
            txn,
            written,
        } = self;
        store.run("write", || f(&mut Tables::open(txn)?, written))
    }

    /// Writes nodes under consecutive keys and returns the first: the node at index `i`
    /// gets key `first + i`. An ID already written is [`StoreError::DuplicateId`].
    pub fn add_nodes(&mut self, nodes: &[NodeRecord]) -> Result<u32, StoreError> {
        self.write(|tables, written| {
            let first = written.next_key;
            // Terms are indexed whole at commit (a fresh FST), so which changed is not kept.
            let mut touched = BTreeSet::new();
            for node in nodes {
                if tables.ids.get(node.id.as_str()).ctx("read ids")?.is_some() {
                    return Err(StoreError::DuplicateId(node.id.clone()));
                }
                let key = written.next_key;
                written.next_key = key
                    .checked_add(1)
                    .ok_or_else(|| StoreError::corrupted("meta", "node keys exhausted"))?;
                let buffer = std::mem::take(&mut written.buffer);
                written.buffer = insert_node(tables, &mut touched, key, node, buffer)?;
                touched.clear();
            }
            written.stats.nodes += nodes.len();
            Ok(first)
        })
    }

    /// Writes files with every edge whose source is one of their nodes, as `(source key,
    /// entry)`: each source's outgoing list is written whole, so all of a source's edges
    /// come in one call (edges found later go through [`Loader::merge_edges`]). An edge
    /// naming a key no node has is refused before anything is written; a file given twice or
    /// a source whose list was already written is an error too. After an error the loader is
    /// only good for dropping.
    pub fn add_files(
        &mut self,
        files: &[LoadedFile],
        edges: Vec<(u32, EdgeEntry)>,
    ) -> Result<(), StoreError> {
        self.write(|tables, written| {
            for (source, entry) in &edges {
                check_keys(*source, entry, written.next_key)?;
            }
            for file in files {
                let path = file.entry.path.as_str();
                if tables.files.get(path).ctx("read files")?.is_some() {
                    return Err(StoreError::DuplicateFile(path.to_owned()));
                }
                if let Some(&key) = file.keys.iter().find(|&&key| key >= written.next_key) {
                    return Err(unknown_key("file", path, key));
                }
                let buffer = std::mem::take(&mut written.buffer);
                written.buffer = write_file_record(tables, &file.entry, file.keys.clone(), buffer)?;
                if let Some(blob) = &file.blob {
                    tables
                        .blobs
                        .insert(path, blob.as_slice())
                        .ctx("write blob")?;
                }
                if !file.unresolved.is_empty() {
                    let buffer = std::mem::take(&mut written.buffer);
                    let calls = file.unresolved.clone();
                    written.buffer = write_unresolved(tables, path, calls, buffer)?;
                }
            }
            written.stats.files += files.len();
            written.stats.edges += edges.len();
            let mut lists: HashMap<u32, Vec<EdgeEntry>> = HashMap::new();
            for (source, entry) in edges {
                tables
                    .in_edges
                    .insert((entry.other, source, entry.kind), ())
                    .ctx("write in edge")?;
                lists.entry(source).or_default().push(entry);
            }
            for &source in lists.keys() {
                if tables
                    .out_edges
                    .get(source)
                    .ctx("read adjacency")?
                    .is_some()
                {
                    return Err(StoreError::corrupted(
                        "bulk load",
                        format!("the edges of node {source} came in two parts"),
                    ));
                }
            }
            write_lists(&mut tables.out_edges, lists, &mut written.buffer)
        })
    }

    /// Adds edges to nodes whose outgoing lists may be written already (by
    /// [`Loader::add_files`] or an earlier call), merging each into its source's list: an edge
    /// already there (same kind and target) takes the new facts in. Returns the kinds of the
    /// edges that were new.
    pub fn merge_edges(&mut self, edges: Vec<(u32, EdgeEntry)>) -> Result<Vec<u8>, StoreError> {
        self.write(|tables, written| {
            for (source, entry) in &edges {
                check_keys(*source, entry, written.next_key)?;
            }
            let mut lists: HashMap<u32, Vec<EdgeEntry>> = HashMap::new();
            let mut added = Vec::new();
            for (source, entry) in edges {
                let list = match lists.entry(source) {
                    std::collections::hash_map::Entry::Occupied(list) => list.into_mut(),
                    std::collections::hash_map::Entry::Vacant(slot) => {
                        slot.insert(tables.out_list(source)?)
                    }
                };
                if !list
                    .iter()
                    .any(|e| e.kind == entry.kind && e.other == entry.other)
                {
                    tables
                        .in_edges
                        .insert((entry.other, source, entry.kind), ())
                        .ctx("write in edge")?;
                    added.push(entry.kind);
                }
                list.push(entry);
            }
            written.stats.edges += added.len();
            write_lists(&mut tables.out_edges, lists, &mut written.buffer)?;
            Ok(added)
        })
    }

    /// Writes `meta`, indexes the search terms and commits: the new graph replaces the old
    /// one for every reader at once.
    pub fn commit(self, meta: &[(String, Vec<u8>)]) -> Result<StoreStats, StoreError> {
        let Loader {
            store,
            txn,
            written,
        } = self;
        let committed = store.run("write", || {
            {
                let mut tables = Tables::open(&txn)?;
                tables
                    .meta
                    .insert(META_NEXT_KEY, written.next_key.to_le_bytes().as_slice())
                    .ctx("write meta")?;
                for (key, value) in meta {
                    tables
                        .meta
                        .insert(key.as_str(), value.as_slice())
                        .ctx("write meta")?;
                }
                rebuild_fst(&tables.terms, &mut tables.search)?;
            }
            commit(txn)
        });
        store.committed(committed.map(|()| written.stats))
    }
}

/// An edge whose ends are both keys of added nodes.
fn check_keys(source: u32, entry: &EdgeEntry, next_key: u32) -> Result<(), StoreError> {
    match [source, entry.other]
        .into_iter()
        .find(|&key| key >= next_key)
    {
        Some(key) => Err(unknown_key("edge", &format!("from node {source}"), key)),
        None => Ok(()),
    }
}

fn unknown_key(what: &str, from: &str, key: u32) -> StoreError {
    StoreError::corrupted(
        "bulk load",
        format!("{what} {from} names node key {key}, which no added node has"),
    )
}
