//! The errors of the graph store. Corrupt bytes become `Corrupted`, never a panic.

use std::path::PathBuf;

/// An error of the graph store.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The store was written by another schema version of tsgraph.
    #[error(
        "{path}: store schema version {found}, this tsgraph reads version {expected}; \
         rebuild it with `tsgraph index --rebuild`"
    )]
    SchemaMismatch {
        /// The store file.
        path: PathBuf,
        /// The version found in the file.
        found: u32,
        /// The version this build reads and writes.
        expected: u32,
    },
    /// The file is not a readable redb database, or a record in it fails validation.
    #[error(
        "{context}: the store is corrupt ({detail}); rebuild it with `tsgraph index --rebuild`"
    )]
    Corrupted {
        /// Which file or record.
        context: String,
        /// What failed.
        detail: String,
    },
    /// An edge names a node ID that is neither in the batch nor in the store.
    #[error("edge {kind} from `{source_id}` to `{target_id}` names an unknown node")]
    UnknownNode {
        /// The edge kind.
        kind: String,
        /// The source ID.
        source_id: String,
        /// The target ID.
        target_id: String,
    },
    /// The same file appears twice in one batch (or is both written and removed).
    #[error("file `{0}` appears twice in one batch")]
    DuplicateFile(String),
    /// The same node ID appears twice in one batch.
    #[error("node ID `{0}` appears twice in one batch")]
    DuplicateId(String),
    /// An I/O or database error from redb.
    #[error("{context}")]
    Database {
        /// What the store was doing.
        context: String,
        /// The underlying redb error.
        #[source]
        source: redb::Error,
    },
}

impl StoreError {
    pub(crate) fn db(context: impl Into<String>) -> impl FnOnce(redb::Error) -> StoreError {
        let context = context.into();
        move |source| match source {
            redb::Error::Corrupted(detail) => StoreError::Corrupted { context, detail },
            source => StoreError::Database { context, source },
        }
    }

    pub(crate) fn corrupted(context: impl Into<String>, detail: impl ToString) -> StoreError {
        StoreError::Corrupted {
            context: context.into(),
            detail: detail.to_string(),
        }
    }
}

/// Converts any redb error type into `redb::Error` and then into a [`StoreError`].
pub(crate) trait DbResultExt<T> {
    fn ctx(self, context: &str) -> Result<T, StoreError>;
}

impl<T, E: Into<redb::Error>> DbResultExt<T> for Result<T, E> {
    fn ctx(self, context: &str) -> Result<T, StoreError> {
        self.map_err(|err| StoreError::db(context)(err.into()))
    }
}
