//! Options of an indexing run.

/// How to index a project.
#[derive(Debug, Clone)]
pub struct IndexOptions {
    /// Files larger than this many bytes are skipped with a warning (bundled JavaScript that
    /// ships as `.ts` would otherwise dominate the index). Default 1 MiB.
    pub max_file_size: u64,
    /// Worker threads for parsing; 0 means one per core.
    pub threads: usize,
}

impl Default for IndexOptions {
    fn default() -> Self {
        IndexOptions {
            max_file_size: 1024 * 1024,
            threads: 0,
        }
    }
}
