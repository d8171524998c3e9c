//! The facade's error type.

use std::path::PathBuf;

/// Why a tsgraph operation failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The store could not be opened, read or written.
    #[error(transparent)]
    Store(#[from] tsgraph_engine::StoreError),
    /// Indexing failed.
    #[error(transparent)]
    Index(#[from] tsgraph_indexer::IndexError),
    /// A query failed.
    #[error(transparent)]
    Query(#[from] tsgraph_query::QueryError),
    /// A file or folder could not be used.
    #[error("{}", path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The default store folder (or file) is a symbolic link out of the project.
    #[error(
        "{} is a symbolic link to {}, outside the project; tsgraph keeps its store inside the \
         project unless --db names it (--db {})",
        link.display(),
        target.display(),
        store.display()
    )]
    StoreOutsideProject {
        /// The link.
        link: PathBuf,
        /// Where it leads.
        target: PathBuf,
        /// The store file it would lead to, for `--db`.
        store: PathBuf,
    },
    /// A query was asked of a project that was never indexed.
    #[error("{}: no index here yet; run `tsgraph index`", store.display())]
    NotIndexed {
        /// The store that was looked for.
        store: PathBuf,
    },
    /// A symbol argument matched no node.
    #[error("no symbol matches `{symbol}`{}", suggestion_text(.suggestions))]
    SymbolNotFound {
        /// What was asked.
        symbol: String,
        /// The closest names.
        suggestions: Vec<String>,
    },
    /// A symbol argument matched several nodes.
    #[error("`{symbol}` matches {} symbols; give a node ID or --file:\n  {}", .candidates.len(), .candidates.join("\n  "))]
    AmbiguousSymbol {
        /// What was asked.
        symbol: String,
        /// The matching node IDs.
        candidates: Vec<String>,
    },
}

fn suggestion_text(suggestions: &[String]) -> String {
    if suggestions.is_empty() {
        String::new()
    } else {
        format!("; closest names: {}", suggestions.join(", "))
    }
}

impl Error {
    /// Whether the error is about the symbol asked for (the CLI exits with code 2).
    pub fn is_symbol_error(&self) -> bool {
        matches!(
            self,
            Error::SymbolNotFound { .. } | Error::AmbiguousSymbol { .. }
        )
    }
}
