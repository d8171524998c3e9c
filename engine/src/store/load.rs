//! A whole graph written in parts: the bulk path of a full index. [`Store::replace_all`] needs
//! the graph in memory at once, with every edge naming its ends by ID string; at millions of
//! lines that batch alone costs hundreds of megabytes. A [`Loader`] takes the nodes first (and
//! gives back their keys), then each group of files with its edges named by key, so the
//! writer holds one group at a time. It is still one transaction: readers see the old graph
//! until [`Loader::commit`], and a loader dropped unfinished leaves the store as it was.

use std::collections::{HashMap, HashSet};

use redb::{ReadableTable, WriteTransaction};

use super::aside::Aside;
use super::search::index_all_terms;
use super::tables::META_NEXT_KEY;
use super::write::{Tables, clear_all, commit, insert_record, write_file_record, write_lists};
use super::{Store, StoreStats};
use crate::error::{DbResultExt, StoreError};
use crate::model::EdgeKind;
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

/// Writes a whole new graph in parts, in one transaction (see [`Store::replace_all_in_parts`]).
///
/// ```
/// use tsgraph_engine::{EdgeEntry, EdgeKind, FileEntry, LoadedFile, NodeKind, NodeRecord, Store};
///
/// let dir = tempfile::tempdir().unwrap();
/// let store = Store::open_or_create(dir.path().join("graph.redb")).unwrap();
/// let mut loader = store.replace_all_in_parts().unwrap();
/// let first = loader
///     .add_nodes(vec![
///         NodeRecord::new("a.ts", NodeKind::File, "a.ts", "a.ts", 1, 3),
///         NodeRecord::new("a.ts:run", NodeKind::Function, "run", "a.ts", 1, 3),
///     ])
///     .unwrap();
/// let file = LoadedFile {
///     entry: FileEntry { path: "a.ts".into(), ..FileEntry::default() },
///     keys: vec![first, first + 1],
///     ..LoadedFile::default()
/// };
/// let contains = EdgeEntry {
///     kind: EdgeKind::Contains.as_u8(),
///     other: first + 1,
///     facts: Default::default(),
/// };
/// loader.add_files(vec![file], vec![(first, contains)]).unwrap();
/// let stats = loader.commit(&[]).unwrap();
/// assert_eq!((stats.nodes, stats.edges, stats.files), (2, 1, 1));
/// ```
pub struct Loader<'s> {
    store: &'s Store,
    txn: WriteTransaction,
    written: Written,
    /// The search terms and unresolved rows, prepared on their own thread.
    aside: Aside,
}

/// What a loader has written so far, and its serialisation buffer.
struct Written {
    /// The key the next node gets (the count of nodes so far).
    next_key: u32,
    /// Per node key, whether a file has listed it.
    listed: Vec<bool>,
    /// A call failed: what was written is incomplete, so nothing more is taken.
    failed: bool,
    /// Files have come, so every node is likely in.
    files_begun: bool,
    stats: StoreStats,
    buffer: rkyv::util::AlignedVec<16>,
}

impl Written {
    /// Refuses an edge unless its source is one of `sources` (the nodes of the files being
    /// written) and its target a key some node has.
    fn check_edge(
        &self,
        sources: &HashSet<u32>,
        source: u32,
        entry: &EdgeEntry,
    ) -> Result<(), StoreError> {
        if !sources.contains(&source) {
            return Err(invalid(format!(
                "an edge from node {source}, which none of the files given lists"
            )));
        }
        if EdgeKind::from_u8(entry.kind).is_none() {
            return Err(invalid(format!(
                "an edge from node {source} of kind {}, which is no edge kind",
                entry.kind
            )));
        }
        if entry.other >= self.next_key {
            return Err(invalid(format!(
                "an edge from node {source} to key {}, which no added node has",
                entry.other
            )));
        }
        Ok(())
    }
}

impl Store {
    /// Starts replacing the whole graph with one written in parts ([`Loader`]): every node
    /// first, then the files with their edges by key. Holds the write transaction until
    /// [`Loader::commit`]; dropping the loader instead leaves the store as it was.
    pub fn replace_all_in_parts(&self) -> Result<Loader<'_>, StoreError> {
        let guard = self.writer()?;
        let db: &redb::Database = &guard;
        let txn = self.run("write", || {
            let txn = super::begin_write(db)?;
            clear_all(&txn)?;
            Ok(txn)
        })?;
        Ok(Loader {
            store: self,
            txn,
            aside: Aside::start(),
            written: Written {
                next_key: 0,
                listed: Vec::new(),
                failed: false,
                files_begun: false,
                stats: StoreStats::default(),
                buffer: rkyv::util::AlignedVec::new(),
            },
        })
    }
}

impl Loader<'_> {
    /// Runs `f` over the transaction's open tables, inside the store's panic boundary. A
    /// failure leaves the loader refusing every later call: what the failed call wrote is
    /// incomplete, and only dropping the loader (which discards it all) is safe.
    fn write<T>(
        &mut self,
        f: impl FnOnce(&mut Tables<'_>, &mut Written) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let Loader {
            store,
            txn,
            written,
            ..
        } = self;
        if written.failed {
            return Err(invalid(
                "an earlier call failed; drop the loader".to_owned(),
            ));
        }
        let result = store.run("write", || f(&mut Tables::open(txn)?, written));
        written.failed = result.is_err();
        result
    }

    /// Writes nodes under consecutive keys and returns the first: the node at index `i`
    /// gets key `first + i`. An ID already written is [`StoreError::DuplicateId`] (found by
    /// the insert itself). The loader keeps the records: their search terms are prepared
    /// aside, and indexed at commit.
    pub fn add_nodes(&mut self, nodes: Vec<NodeRecord>) -> Result<u32, StoreError> {
        let first = self.write(|tables, written| {
            let first = written.next_key;
            for node in &nodes {
                let key = written.next_key;
                written.next_key = key
                    .checked_add(1)
                    .ok_or_else(|| invalid("node keys exhausted".to_owned()))?;
                insert_record(tables, key, node, &mut written.buffer)?;
            }
            written.listed.resize(written.next_key as usize, false);
            written.stats.nodes += nodes.len();
            Ok(first)
        })?;
        self.aside.nodes(first, nodes);
        Ok(first)
    }

    /// Writes files with every edge whose source is one of their nodes, as `(source key,
    /// entry)`. Each file lists its nodes' keys (each node in exactly one file), and each
    /// source's outgoing list is written whole from these edges: the edges of a file's nodes
    /// all come with the file (edges found later go through [`Loader::merge_edges`]). Every
    /// edge given counts in the stats, as [`Store::replace_all`] counts a batch's (the same
    /// edge twice is stored once). Anything else is [`StoreError::InvalidLoad`].
    pub fn add_files(
        &mut self,
        files: Vec<LoadedFile>,
        edges: Vec<(u32, EdgeEntry)>,
    ) -> Result<(), StoreError> {
        if !self.written.files_begun {
            self.written.files_begun = true;
            self.aside.nodes_done();
        }
        let mut files = files;
        let calls: Vec<(String, Vec<UnresolvedCall>)> = (files.iter_mut())
            .filter(|file| !file.unresolved.is_empty())
            .map(|file| {
                (
                    file.entry.path.clone(),
                    std::mem::take(&mut file.unresolved),
                )
            })
            .collect();
        // Rows of earlier files' unresolved sites, made aside meanwhile.
        let ready = self.aside.ready_rows();
        self.write(|tables, written| {
            for rows in &ready {
                rows.insert_into(tables)?;
            }
            let mut sources = HashSet::new();
            for file in &files {
                for &key in &file.keys {
                    match written.listed.get_mut(key as usize) {
                        Some(listed) if !*listed => *listed = true,
                        Some(_) => {
                            return Err(invalid(format!("node key {key} listed by two files")));
                        }
                        None => {
                            return Err(invalid(format!(
                                "`{}` lists node key {key}, which no added node has",
                                file.entry.path
                            )));
                        }
                    }
                    sources.insert(key);
                }
            }
            for (source, entry) in &edges {
                written.check_edge(&sources, *source, entry)?;
            }
            for file in files {
                let path = file.entry.path.as_str();
                if tables.files.get(path).ctx("read files")?.is_some() {
                    return Err(StoreError::DuplicateFile(path.to_owned()));
                }
                write_file_record(tables, &file.entry, file.keys, &mut written.buffer)?;
                if let Some(blob) = &file.blob {
                    tables
                        .blobs
                        .insert(path, blob.as_slice())
                        .ctx("write blob")?;
                }
                written.stats.files += 1;
            }
            written.stats.edges += edges.len();
            // Keyed by target, these take their keys sorted: neighbours share B-tree pages.
            // (The files' unresolved rows are made aside and inserted by a later call.)
            let mut incoming: Vec<(u32, u32, u8)> = edges
                .iter()
                .map(|(source, entry)| (entry.other, *source, entry.kind))
                .collect();
            incoming.sort_unstable();
            for key in incoming {
                tables.in_edges.insert(key, ()).ctx("write in edge")?;
            }
            let mut lists: HashMap<u32, Vec<EdgeEntry>> = HashMap::new();
            for (source, entry) in edges {
                lists.entry(source).or_default().push(entry);
            }
            write_lists(&mut tables.out_edges, lists, &mut written.buffer)
        })?;
        self.aside.unresolved(calls);
        Ok(())
    }

    /// Adds edges to nodes whose files were written already (by [`Loader::add_files`]),
    /// merging each into its source's list: an edge already there (same kind and target)
    /// takes the new facts in. Only the edges that were new count in the stats; their kinds
    /// are returned.
    pub fn merge_edges(&mut self, edges: Vec<(u32, EdgeEntry)>) -> Result<Vec<u8>, StoreError> {
        self.write(|tables, written| {
            let sources: HashSet<u32> = edges
                .iter()
                .map(|(source, _)| *source)
                .filter(|&source| written.listed.get(source as usize) == Some(&true))
                .collect();
            for (source, entry) in &edges {
                written.check_edge(&sources, *source, entry)?;
            }
            let mut lists: HashMap<u32, Vec<EdgeEntry>> = HashMap::new();
            let mut added = Vec::new();
            for (source, entry) in edges {
                // Every stored edge has its incoming entry, so the insert tells a new edge
                // from one already in the list.
                let new = tables
                    .in_edges
                    .insert((entry.other, source, entry.kind), ())
                    .ctx("write in edge")?
                    .is_none();
                if new {
                    added.push(entry.kind);
                }
                tables.out_list_in(&mut lists, source)?.push(entry);
            }
            written.stats.edges += added.len();
            write_lists(&mut tables.out_edges, lists, &mut written.buffer)?;
            Ok(added)
        })
    }

    /// Writes `meta`, indexes the search terms and commits: the new graph replaces the old
    /// one for every reader at once. Every node added must have been listed by a file.
    pub fn commit(mut self, meta: &[(String, Vec<u8>)]) -> Result<StoreStats, StoreError> {
        let mut aside = std::mem::replace(&mut self.aside, Aside::idle());
        self.write(|tables, written| {
            if let Some(key) = written.listed.iter().position(|listed| !listed) {
                return Err(invalid(format!("node key {key} is listed by no file")));
            }
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
            // Prepared while the files were written: the postings go in key order, the rows
            // not yet inserted in batches each in key order.
            let prepared = aside.finish()?;
            for rows in &prepared.unresolved {
                rows.insert_into(tables)?;
            }
            prepared.crowded.insert_into(&mut tables.crowded)?;
            index_all_terms(
                &prepared.terms,
                &prepared.fst,
                &mut tables.terms,
                &mut tables.search,
            )
        })?;
        let Loader {
            store,
            txn,
            written,
            ..
        } = self;
        let committed = store.run("write", || commit(txn));
        store.committed(committed.map(|()| written.stats))
    }
}

fn invalid(detail: String) -> StoreError {
    StoreError::InvalidLoad(detail)
}
