//! Options of an indexing run.

use std::fmt;
use std::sync::Arc;

/// How to index a project.
#[derive(Debug, Clone)]
pub struct IndexOptions {
    /// Files larger than this many bytes are skipped with a warning (bundled JavaScript that
    /// ships as `.ts` would otherwise dominate the index). Default 1 MiB.
    pub max_file_size: u64,
    /// Worker threads for parsing; 0 means one per core.
    pub threads: usize,
    /// Told how a full index advances (a progress bar); `None` by default.
    pub progress: Option<ProgressHook>,
    /// A long-lived writer ([`crate::LiveIndex`]'s owner) has a new graph file built once the
    /// overlay of changes since the last one holds more than this many entries. Default
    /// [`tsgraph_engine::OVERLAY_BOUND`].
    pub graph_file_bound: u64,
}

impl Default for IndexOptions {
    fn default() -> Self {
        IndexOptions {
            max_file_size: 1024 * 1024,
            threads: 0,
            progress: None,
            graph_file_bound: tsgraph_engine::OVERLAY_BOUND,
        }
    }
}

/// Where a full index is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum IndexProgress {
    /// Parsing and extracting: `done` of `total` files.
    Parsing {
        /// Files finished.
        done: u64,
        /// Files to do.
        total: u64,
    },
    /// Resolving names and building edges across files.
    Linking,
    /// Linking the files and writing the graph into the store, part by part, side by side.
    Writing,
}

/// A callback told of [`IndexProgress`], from the thread running the index. It should be
/// cheap: it is called once per parsed file.
///
/// ```
/// use std::sync::Arc;
/// use tsgraph_indexer::{IndexOptions, IndexProgress, ProgressHook};
///
/// let options = IndexOptions {
///     progress: Some(ProgressHook(Arc::new(|progress| {
///         if let IndexProgress::Parsing { done, total } = progress {
///             eprint!("\r{done}/{total}");
///         }
///     }))),
///     ..IndexOptions::default()
/// };
/// # let _ = options;
/// ```
#[derive(Clone)]
pub struct ProgressHook(pub Arc<dyn Fn(IndexProgress) + Send + Sync>);

impl ProgressHook {
    pub(crate) fn tell(hook: Option<&ProgressHook>, progress: IndexProgress) {
        if let Some(hook) = hook {
            (hook.0)(progress);
        }
    }
}

impl fmt::Debug for ProgressHook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ProgressHook")
    }
}
