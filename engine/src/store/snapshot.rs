//! Read snapshots: zero-copy access to node records and adjacency lists. Every read goes
//! through the store's panic boundary.

use redb::{
    AccessGuard, Database, ReadOnlyMultimapTable, ReadOnlyTable, ReadableDatabase,
    ReadableMultimapTable, ReadableTable, ReadableTableMetadata,
};

use super::guard::{Boundary, Quiet};
use super::tables::{FILES, IDS, IN_EDGES, META, NAMES, NODES, OUT_EDGES};
use crate::error::{DbResultExt, StoreError};
use crate::model::{EdgeKind, NodeKey};
use crate::record::{ArchivedAdjacency, ArchivedEdgeEntry, ArchivedFileRecord, NodeView};

/// A consistent, read-only view of the graph. Holding it never blocks the writer; a write
/// committed after it was taken is not seen.
pub struct Snapshot {
    nodes: Quiet<ReadOnlyTable<u32, &'static [u8]>>,
    ids: Quiet<ReadOnlyTable<&'static str, u32>>,
    names: Quiet<ReadOnlyMultimapTable<&'static str, u32>>,
    files: Quiet<ReadOnlyTable<&'static str, &'static [u8]>>,
    out_edges: Quiet<ReadOnlyTable<u32, &'static [u8]>>,
    in_edges: Quiet<ReadOnlyTable<u32, &'static [u8]>>,
    meta: Quiet<ReadOnlyTable<&'static str, &'static [u8]>>,
    boundary: Boundary,
}

impl Snapshot {
    pub(super) fn new(db: &Database, boundary: Boundary) -> Result<Snapshot, StoreError> {
        boundary.run("begin read", || {
            let txn = Quiet::new(db.begin_read().ctx("begin read")?);
            Ok(Snapshot {
                nodes: Quiet::new(txn.open_table(NODES).ctx("open nodes")?),
                ids: Quiet::new(txn.open_table(IDS).ctx("open ids")?),
                names: Quiet::new(txn.open_multimap_table(NAMES).ctx("open names")?),
                files: Quiet::new(txn.open_table(FILES).ctx("open files")?),
                out_edges: Quiet::new(txn.open_table(OUT_EDGES).ctx("open out edges")?),
                in_edges: Quiet::new(txn.open_table(IN_EDGES).ctx("open in edges")?),
                meta: Quiet::new(txn.open_table(META).ctx("open meta")?),
                boundary: boundary.clone(),
            })
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
        self.read("read ids", || {
            Ok(self
                .ids
                .get(id)
                .ctx("read ids")?
                .map(|key| NodeKey(key.value())))
        })
    }

    /// The stored record of `key`, or `None` if there is no such node.
    pub fn node(&self, key: NodeKey) -> Result<Option<NodeGuard<'_>>, StoreError> {
        self.read("read node", || {
            Ok(self
                .nodes
                .get(key.0)
                .ctx("read node")?
                .map(|guard| NodeGuard {
                    guard: Quiet::new(guard),
                    boundary: &self.boundary,
                }))
        })
    }

    /// The keys of every node whose simple name is `name`, ascending.
    pub fn keys_named(&self, name: &str) -> Result<Vec<NodeKey>, StoreError> {
        self.read("read names", || {
            let mut keys = Vec::new();
            for key in self.names.get(name).ctx("read names")? {
                keys.push(NodeKey(key.ctx("read names")?.value()));
            }
            Ok(keys)
        })
    }

    /// Every distinct simple name, ascending (for search and "did you mean").
    pub fn names(&self) -> Result<Vec<String>, StoreError> {
        self.read("read names", || {
            let mut names = Vec::new();
            for entry in self.names.iter().ctx("read names")? {
                let (name, _) = entry.ctx("read names")?;
                names.push(name.value().to_owned());
            }
            Ok(names)
        })
    }

    /// Every node key, ascending.
    pub fn node_keys(&self) -> Result<Vec<NodeKey>, StoreError> {
        self.read("read nodes", || {
            let count = self.nodes.len().ctx("count nodes")?;
            let mut keys = Vec::with_capacity(usize::try_from(count).unwrap_or(0));
            for entry in self.nodes.iter().ctx("read nodes")? {
                let (key, _) = entry.ctx("read nodes")?;
                keys.push(NodeKey(key.value()));
            }
            Ok(keys)
        })
    }

    /// Number of nodes.
    pub fn node_count(&self) -> Result<u64, StoreError> {
        self.read("count nodes", || self.nodes.len().ctx("count nodes"))
    }

    /// Every indexed file path with its content hash, ascending by path.
    pub fn files(&self) -> Result<Vec<(String, u64)>, StoreError> {
        self.read("read files", || {
            let mut files = Vec::new();
            for entry in self.files.iter().ctx("read files")? {
                let (path, record) = entry.ctx("read files")?;
                let record = access_file(record.value())?;
                files.push((path.value().to_owned(), record.hash.to_native()));
            }
            Ok(files)
        })
    }

    /// The keys of the nodes of the file at `path`, the file node first.
    pub fn file_keys(&self, path: &str) -> Result<Option<Vec<NodeKey>>, StoreError> {
        self.read("read files", || {
            let Some(guard) = self.files.get(path).ctx("read files")? else {
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

    /// The outgoing adjacency of `key` (with edge facts).
    pub fn out_edges(&self, key: NodeKey) -> Result<AdjacencyGuard<'_>, StoreError> {
        self.read("read out edges", || {
            Ok(AdjacencyGuard {
                guard: self
                    .out_edges
                    .get(key.0)
                    .ctx("read out edges")?
                    .map(Quiet::new),
                boundary: &self.boundary,
            })
        })
    }

    /// The incoming adjacency of `key` (kind and source only; the facts live with the source).
    pub fn in_edges(&self, key: NodeKey) -> Result<AdjacencyGuard<'_>, StoreError> {
        self.read("read in edges", || {
            Ok(AdjacencyGuard {
                guard: self
                    .in_edges
                    .get(key.0)
                    .ctx("read in edges")?
                    .map(Quiet::new),
                boundary: &self.boundary,
            })
        })
    }

    /// A metadata value.
    pub fn meta(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        self.read("read meta", || {
            Ok(self
                .meta
                .get(key)
                .ctx("read meta")?
                .map(|v| v.value().to_vec()))
        })
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
    guard: Quiet<AccessGuard<'a, &'static [u8]>>,
    boundary: &'a Boundary,
}

impl NodeGuard<'_> {
    /// Validates the record and views it without copying.
    pub fn view(&self) -> Result<NodeView<'_>, StoreError> {
        read_in(self.boundary, "read node", || {
            NodeView::from_bytes(self.guard.value())
        })
    }
}

/// Keeps the bytes of one adjacency list alive; [`AdjacencyGuard::edges`] reads them in place.
pub struct AdjacencyGuard<'a> {
    guard: Option<Quiet<AccessGuard<'a, &'static [u8]>>>,
    boundary: &'a Boundary,
}

impl AdjacencyGuard<'_> {
    /// Validates the list and iterates its entries, sorted by (kind, other end).
    pub fn edges(&self) -> Result<impl ExactSizeIterator<Item = EdgeRef<'_>>, StoreError> {
        let entries = read_in(self.boundary, "read adjacency", || self.entries())?;
        Ok(entries.iter().map(EdgeRef::new))
    }

    fn entries(&self) -> Result<&[ArchivedEdgeEntry], StoreError> {
        let entries: &[ArchivedEdgeEntry] = match &self.guard {
            Some(guard) => {
                let list = rkyv::access::<ArchivedAdjacency, rkyv::rancor::Error>(guard.value())
                    .map_err(|err| StoreError::corrupted("adjacency list", err))?;
                if let Some(bad) = list
                    .entries
                    .iter()
                    .find(|e| EdgeKind::from_u8(e.kind).is_none())
                {
                    return Err(StoreError::corrupted(
                        "adjacency list",
                        format!("edge kind {}", bad.kind),
                    ));
                }
                list.entries.as_slice()
            }
            None => &[],
        };
        Ok(entries)
    }
}

/// One edge of an adjacency list, read in place.
#[derive(Clone, Copy)]
pub struct EdgeRef<'a> {
    entry: &'a ArchivedEdgeEntry,
    kind: EdgeKind,
}

impl<'a> EdgeRef<'a> {
    fn new(entry: &'a ArchivedEdgeEntry) -> EdgeRef<'a> {
        // Kinds were validated by `AdjacencyGuard::edges`; the fallback is never taken.
        let kind = EdgeKind::from_u8(entry.kind).unwrap_or(EdgeKind::References);
        EdgeRef { entry, kind }
    }
    /// The edge kind.
    pub fn kind(&self) -> EdgeKind {
        self.kind
    }
    /// The node at the other end (target for outgoing lists, source for incoming ones).
    pub fn other(&self) -> NodeKey {
        NodeKey(self.entry.other.to_native())
    }
    /// CALLS: number of call sites (0 on incoming lists).
    pub fn count(&self) -> u32 {
        self.entry.facts.count.to_native()
    }
    /// CALLS: call-site lines (empty on incoming lists).
    pub fn sites(&self) -> impl ExactSizeIterator<Item = u32> + 'a {
        self.entry.facts.sites.iter().map(|line| line.to_native())
    }
    /// IMPORTS: imported names.
    pub fn names(&self) -> impl ExactSizeIterator<Item = &'a str> + 'a {
        self.entry.facts.names.iter().map(|name| name.as_str())
    }
    /// IMPORTS: `import type`.
    pub fn type_only(&self) -> bool {
        self.entry.facts.type_only
    }
    /// USES_TYPE / REFERENCES: where.
    pub fn context(&self) -> crate::model::UseContext {
        crate::model::UseContext::from_stored(self.entry.facts.context)
    }
}
