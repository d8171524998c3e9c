//! What an indexing run reports, and how it fails.

use std::time::Duration;

use tsgraph_engine::{EdgeKind, StoreError};

/// The outcome of [`crate::index_project`].
#[derive(Debug, Clone)]
pub struct IndexSummary {
    /// Files indexed.
    pub files: usize,
    /// Lines in those files.
    pub lines: u64,
    /// Bytes in those files.
    pub bytes: u64,
    /// Bytes inside tree-sitter ERROR nodes.
    pub error_bytes: u64,
    /// Files with bytes inside ERROR nodes: `(path, error bytes, file bytes)`, most error
    /// bytes first.
    pub error_files: Vec<(String, u64, u64)>,
    /// Nodes written.
    pub nodes: usize,
    /// Edges written.
    pub edges: usize,
    /// Edges written, per kind (every kind listed, in declaration order).
    pub edges_by_kind: Vec<(EdgeKind, usize)>,
    /// Call sites resolved to a node.
    pub resolved_calls: usize,
    /// Call sites left unresolved (globals, methods on values, package imports).
    pub unresolved_calls: usize,
    /// Unresolved call sites by reason (`external`, `parameter`, `unknown-receiver`, …).
    pub unresolved_by_reason: Vec<(String, usize)>,
    /// Imports by outcome: `file`, `external package`, and each reason a specifier resolved
    /// to nothing (`missing file`, `not exported by the package`, `unsupported form`, …).
    pub imports_by_outcome: Vec<(String, usize)>,
    /// Every import of a project path that resolved to nothing.
    pub unresolved_imports: Vec<crate::UnresolvedImport>,
    /// Files skipped for their size, with the size in bytes.
    pub skipped_too_large: Vec<(String, u64)>,
    /// Files or folders that could not be read, and other warnings.
    pub warnings: Vec<String>,
    /// Walking, parsing and extracting (wall time).
    pub parse_time: Duration,
    /// Reading the project model and resolving (wall time), then linking (the linking
    /// thread's busy time: a full index links while it writes, so this and `write_time`
    /// overlap and may add up to more than `total_time`).
    pub link_time: Duration,
    /// Writing the graph into the store (the writing thread's busy time, overlapping the
    /// linking): making and writing the node records, writing the linked parts, and the
    /// commit with its search index. Encoding the files' summaries for the store falls to
    /// whichever of the two threads would otherwise wait, so it counts in either.
    pub write_time: Duration,
    /// The whole run (wall time).
    pub total_time: Duration,
}

impl IndexSummary {
    /// The share of bytes inside ERROR nodes, 0.0 to 1.0.
    pub fn error_share(&self) -> f64 {
        if self.bytes == 0 {
            0.0
        } else {
            self.error_bytes as f64 / self.bytes as f64
        }
    }
}

/// The outcome of [`crate::parse_project`].
#[derive(Debug, Clone)]
pub struct ParseSummary {
    /// Files parsed.
    pub files: usize,
    /// Bytes parsed.
    pub bytes: u64,
    /// Wall time.
    pub time: Duration,
}

/// Why indexing failed. Problems with single files are warnings, not errors.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum IndexError {
    /// The store could not be written; what it held before is intact.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The tree-sitter grammar could not be loaded (an ABI mismatch between crates).
    #[error("cannot load the TypeScript grammar: {0}")]
    Grammar(String),
    /// A parser thread died (a bug: extraction does not panic on any input it was tested on).
    #[error("a parser thread failed: {0}")]
    Worker(String),
    /// Linking for a full index failed (a bug: an edge to a node that has no record, or the
    /// linking thread died); the store is left as it was.
    #[error("linking failed: {0}")]
    Link(String),
    /// An editor's edit of a file cannot be applied (a range outside the text, a path that is
    /// not a source file of the project).
    #[error("{path}: {message}")]
    Edit {
        /// The edited file, as given.
        path: String,
        /// What is wrong.
        message: String,
    },
}
