//! The stored records (rkyv archives) and the batch a writer hands to the store.
//!
//! Records are archived with rkyv's `unaligned` feature, so every archived type has alignment 1
//! and can be validated and read in place from the arbitrarily aligned slices redb returns.

use rkyv::{Archive, Deserialize, Serialize};

use crate::error::StoreError;
use crate::model::{EdgeKind, NodeKind, UseContext, Visibility};

/// Boolean facts of a node, packed in a 16-bit set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NodeFlags(pub u16);

impl NodeFlags {
    /// Exported from its module.
    pub const EXPORTED: u16 = 1;
    /// `async` function or method.
    pub const ASYNC: u16 = 1 << 1;
    /// `static` member.
    pub const STATIC: u16 = 1 << 2;
    /// Optional property (`?`).
    pub const OPTIONAL: u16 = 1 << 3;
    /// `readonly` property.
    pub const READONLY: u16 = 1 << 4;
    /// `const` variable.
    pub const CONST: u16 = 1 << 5;
    /// The default export of its module.
    pub const DEFAULT_EXPORT: u16 = 1 << 6;
    /// `abstract` class or member.
    pub const ABSTRACT: u16 = 1 << 7;

    /// Whether `flag` is set.
    pub const fn has(self, flag: u16) -> bool {
        self.0 & flag != 0
    }

    /// Sets or clears `flag`.
    pub fn set(&mut self, flag: u16, on: bool) {
        if on {
            self.0 |= flag;
        } else {
            self.0 &= !flag;
        }
    }
}

/// A node as stored: identity, location and the facts of its kind.
#[derive(Archive, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct NodeRecord {
    /// The public, stable ID: `path` for files, `path:Symbol.path` otherwise.
    pub id: String,
    /// The [`NodeKind`], as its byte.
    pub kind: u8,
    /// The simple name (`save` for `UserService.save`).
    pub name: String,
    /// The module: the package's folder relative to the project root (`.` at the root).
    pub module: String,
    /// The package name (from the nearest package.json), empty when there is none.
    pub package: String,
    /// The file, relative to the project root, forward slashes.
    pub file: String,
    /// First line, 1-based.
    pub start_line: u32,
    /// Last line, 1-based, inclusive.
    pub end_line: u32,
    /// [`NodeFlags`] bits.
    pub flags: u16,
    /// The [`Visibility`], as its byte.
    pub visibility: u8,
    /// Parameters as `name: Type` strings (functions and methods).
    pub parameters: Vec<String>,
    /// The declared return type, empty when none (or the declared type of a property/variable).
    pub type_text: String,
    /// The first sentence of the leading doc comment, markers stripped and whitespace
    /// folded, at most 160 bytes; empty when none. Topic search finds the node by its words.
    pub doc: String,
}

impl NodeRecord {
    /// A record with the identity and location set and no other facts.
    pub fn new(
        id: impl Into<String>,
        kind: NodeKind,
        name: impl Into<String>,
        file: impl Into<String>,
        start_line: u32,
        end_line: u32,
    ) -> NodeRecord {
        NodeRecord {
            id: id.into(),
            kind: kind.as_u8(),
            name: name.into(),
            module: String::new(),
            package: String::new(),
            file: file.into(),
            start_line,
            end_line,
            flags: 0,
            visibility: Visibility::Default.as_u8(),
            parameters: Vec::new(),
            type_text: String::new(),
            doc: String::new(),
        }
    }

    /// The node kind.
    pub fn node_kind(&self) -> NodeKind {
        NodeKind::from_u8(self.kind).unwrap_or(NodeKind::Variable)
    }
}

/// A zero-copy view of a stored node record, validated when it was made.
#[derive(Clone, Copy)]
pub struct NodeView<'a> {
    record: &'a ArchivedNodeRecord,
    kind: NodeKind,
}

impl<'a> NodeView<'a> {
    /// Validates `bytes` as an archived [`NodeRecord`] and views it in place.
    pub fn from_bytes(bytes: &'a [u8]) -> Result<NodeView<'a>, StoreError> {
        let record = rkyv::access::<ArchivedNodeRecord, rkyv::rancor::Error>(bytes)
            .map_err(|err| StoreError::corrupted("node record", err))?;
        let kind = NodeKind::from_u8(record.kind).ok_or_else(|| {
            StoreError::corrupted("node record", format!("node kind {}", record.kind))
        })?;
        Ok(NodeView { record, kind })
    }

    /// Views `bytes` as an archived [`NodeRecord`] without validating the archive (the kind
    /// byte is still checked).
    ///
    /// # Safety
    /// `bytes` must hold a record that was validated by [`NodeView::from_bytes`] and has not
    /// changed since: a graph file's records are validated as the file is written and covered
    /// by the body checksum a reader verifies before it trusts the file.
    pub(crate) unsafe fn from_trusted_bytes(bytes: &'a [u8]) -> Result<NodeView<'a>, StoreError> {
        if bytes.len() < std::mem::size_of::<ArchivedNodeRecord>() {
            return Err(StoreError::corrupted(
                "node record",
                "shorter than a record",
            ));
        }
        // SAFETY: the caller vouches that these bytes passed `from_bytes` and are unchanged.
        let record = unsafe { rkyv::access_unchecked::<ArchivedNodeRecord>(bytes) };
        let kind = NodeKind::from_u8(record.kind).ok_or_else(|| {
            StoreError::corrupted("node record", format!("node kind {}", record.kind))
        })?;
        Ok(NodeView { record, kind })
    }

    /// The public ID.
    pub fn id(&self) -> &'a str {
        self.record.id.as_str()
    }
    /// The kind.
    pub fn kind(&self) -> NodeKind {
        self.kind
    }
    /// The simple name.
    pub fn name(&self) -> &'a str {
        self.record.name.as_str()
    }
    /// The module (package folder relative to the project root).
    pub fn module(&self) -> &'a str {
        self.record.module.as_str()
    }
    /// The package name.
    pub fn package(&self) -> &'a str {
        self.record.package.as_str()
    }
    /// The file path relative to the project root.
    pub fn file(&self) -> &'a str {
        self.record.file.as_str()
    }
    /// The symbol path: the ID without the file and colon; empty for a file node.
    pub fn symbol(&self) -> &'a str {
        let id = self.id();
        id.get(self.file().len() + 1..).unwrap_or("")
    }
    /// First line, 1-based.
    pub fn start_line(&self) -> u32 {
        self.record.start_line.to_native()
    }
    /// Last line, 1-based, inclusive.
    pub fn end_line(&self) -> u32 {
        self.record.end_line.to_native()
    }
    /// The boolean facts.
    pub fn flags(&self) -> NodeFlags {
        NodeFlags(self.record.flags.to_native())
    }
    /// Whether the symbol is exported.
    pub fn exported(&self) -> bool {
        self.flags().has(NodeFlags::EXPORTED)
    }
    /// The declared visibility (members).
    pub fn visibility(&self) -> Visibility {
        Visibility::from_u8(self.record.visibility).unwrap_or(Visibility::Default)
    }
    /// Parameters as `name: Type` strings.
    pub fn parameters(&self) -> impl ExactSizeIterator<Item = &'a str> + 'a {
        self.record.parameters.iter().map(|p| p.as_str())
    }
    /// Return type of a function or method, declared type of a property or variable.
    pub fn type_text(&self) -> &'a str {
        self.record.type_text.as_str()
    }
    /// The leading doc comment, cleaned (see [`NodeRecord::doc`]).
    pub fn doc(&self) -> &'a str {
        self.record.doc.as_str()
    }
}

impl std::fmt::Debug for NodeView<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NodeView")
            .field("id", &self.id())
            .field("kind", &self.kind)
            .field("lines", &(self.start_line(), self.end_line()))
            .finish()
    }
}

/// The facts an edge carries beyond its kind and ends.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EdgeFacts {
    /// CALLS, INCLUDES, REFERENCES: how many times the source uses the target.
    pub count: u32,
    /// The lines of those uses (of the import statements for IMPORTS), ascending.
    pub sites: Vec<u32>,
    /// IMPORTS: the imported names (`default`, `*` for a namespace).
    pub names: Vec<String>,
    /// IMPORTS: `import type`.
    pub type_only: bool,
    /// USES_TYPE / REFERENCES: the [`UseContext`] byte.
    pub context: u8,
    /// CALLS: the [`crate::Resolution`] byte (how the target was found).
    pub resolution: u8,
}

impl EdgeFacts {
    /// Folds in the facts of the same edge given again: counts add up, sites and names are
    /// joined, and it is type-only only if both were.
    pub fn absorb(&mut self, other: EdgeFacts) {
        self.count = self.count.saturating_add(other.count);
        self.sites.extend(other.sites);
        self.sites.sort_unstable();
        self.sites.dedup();
        for name in other.names {
            if !self.names.contains(&name) {
                self.names.push(name);
            }
        }
        self.type_only &= other.type_only;
    }

    /// The use context (USES_TYPE, REFERENCES).
    pub fn use_context(&self) -> UseContext {
        UseContext::from_stored(self.context)
    }

    /// How a CALLS edge's target was found.
    pub fn resolution(&self) -> crate::Resolution {
        crate::Resolution::from_stored(self.resolution)
    }
}

/// One outgoing edge of a node as a writer hands it to the store: kind, other end and facts.
#[derive(Debug, Clone, PartialEq)]
pub struct EdgeEntry {
    /// The [`EdgeKind`] byte.
    pub kind: u8,
    /// The node key at the other end.
    pub other: u32,
    /// The facts.
    pub facts: EdgeFacts,
}

/// What the store keeps per file: its content hash and stamps, the keys of its nodes, and the
/// packages outside the project it imports.
#[derive(Archive, Serialize, Deserialize, Debug, Clone, PartialEq, Default)]
pub struct FileRecord {
    /// A hash of the file's bytes, to skip unchanged files.
    pub hash: u64,
    /// The file's size when it was indexed.
    pub size: u64,
    /// The file's modification time when it was indexed (nanoseconds since the epoch, 0
    /// when unknown).
    pub modified: u64,
    /// The keys of the nodes extracted from this file (the file node first).
    pub keys: Vec<u32>,
    /// Packages outside the project this file imports, sorted.
    pub external: Vec<String>,
}

/// An edge to write, addressed by the public IDs of its ends.
#[derive(Debug, Clone, PartialEq)]
pub struct EdgeSpec {
    /// The source node ID.
    pub source: String,
    /// The target node ID.
    pub target: String,
    /// The kind.
    pub kind: EdgeKind,
    /// The facts.
    pub facts: EdgeFacts,
}

impl EdgeSpec {
    /// An edge without facts.
    pub fn new(source: impl Into<String>, target: impl Into<String>, kind: EdgeKind) -> EdgeSpec {
        EdgeSpec {
            source: source.into(),
            target: target.into(),
            kind,
            facts: EdgeFacts::default(),
        }
    }
}

/// A file written by a batch.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FileEntry {
    /// Path relative to the project root.
    pub path: String,
    /// Content hash.
    pub hash: u64,
    /// Size in bytes when indexed.
    pub size: u64,
    /// Modification time when indexed (nanoseconds since the epoch, 0 when unknown).
    pub modified: u64,
    /// Packages outside the project the file imports.
    pub external: Vec<String>,
}

/// A call site no declaration of the project was found for, kept so that a question about a
/// symbol can say how many calls of its name could not be resolved.
#[derive(Archive, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct UnresolvedCall {
    /// The calling node's ID.
    pub caller: String,
    /// The callee as written (`this.repo.save`).
    pub callee: String,
    /// The called name (the callee's last segment: `save`).
    pub name: String,
    /// The line of the call.
    pub line: u32,
    /// Why it was not resolved (`unknown-receiver`, `parameter`, …).
    pub reason: String,
}

/// A file's unresolved calls, as stored.
#[derive(Archive, Serialize, Deserialize, Debug, Clone, PartialEq, Default)]
pub(crate) struct UnresolvedList {
    pub(crate) calls: Vec<UnresolvedCall>,
}

/// Everything a writer hands the store in one transaction.
///
/// Every node belongs to a file of `files` (its `file` field); edges name their ends by ID and
/// may point at nodes already stored (for incremental updates).
#[derive(Debug, Clone, Default)]
pub struct GraphBatch {
    /// The files this batch (re)writes.
    pub files: Vec<FileEntry>,
    /// The nodes of those files.
    pub nodes: Vec<NodeRecord>,
    /// The edges whose source is one of those nodes.
    pub edges: Vec<EdgeSpec>,
    /// Metadata written in the same transaction (project root, completion markers, …).
    pub meta: Vec<(String, Vec<u8>)>,
    /// An opaque blob per file (the indexer's persisted summary). A file of the batch
    /// without one keeps the blob it had; a removed file loses its blob.
    pub blobs: Vec<(String, Vec<u8>)>,
    /// The unresolved call sites of the batch's files, by file path.
    pub unresolved: Vec<(String, UnresolvedCall)>,
}

impl GraphBatch {
    /// Adds a file entry (no stamps, no external imports).
    pub fn add_file(&mut self, path: impl Into<String>, hash: u64) {
        self.files.push(FileEntry {
            path: path.into(),
            hash,
            ..FileEntry::default()
        });
    }
}
