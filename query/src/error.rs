//! Query errors.

use tsgraph_engine::StoreError;

/// Why a query failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum QueryError {
    /// Reading the store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The sink failed to write.
    #[error("writing the result")]
    Output(#[from] std::io::Error),
    /// A search pattern or filter is invalid.
    #[error(transparent)]
    Search(#[from] crate::search::SearchError),
    /// A node key named by an edge or a caller does not exist.
    #[error("node key {0} is not in the store (the store may be corrupt; rebuild it)")]
    MissingNode(u32),
}
