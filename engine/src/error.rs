//! The errors of the graph store. Corrupt bytes become `Corrupted`, never a panic; a store that
//! is merely locked, unreadable for lack of permission or on a failing disk says so, and only
//! a corrupt one suggests rebuilding it.

use std::io;
use std::path::{Path, PathBuf};

/// An error of the graph store.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The store was written by another schema version of tsgraph.
    #[error(
        "{path}: the store has schema version {found} and this tsgraph reads version \
         {expected}; index the project again with this tsgraph (`tsgraph index` replaces \
         the store)"
    )]
    SchemaMismatch {
        /// The store file.
        path: PathBuf,
        /// The version found in the file.
        found: u32,
        /// The version this build reads and writes.
        expected: u32,
    },
    /// The file is not a readable redb database, fails its integrity check, or a record in it
    /// fails validation. The only error that suggests rebuilding the store.
    #[error(
        "{context}: the store is corrupt ({detail}); rebuild it with `tsgraph index --rebuild`"
    )]
    Corrupted {
        /// Which file or record.
        context: String,
        /// What failed.
        detail: String,
    },
    /// Another process (or another handle in this one) has the store open.
    #[error("{}: the store is in use by {}; try again when it has finished", path.display(), holder_text(*.holder))]
    Locked {
        /// The store file.
        path: PathBuf,
        /// The process holding the lock, when the system says (Linux `/proc/locks`).
        holder: Option<u32>,
    },
    /// A write was asked of a store opened read-only.
    #[error("{}: the store is open read-only here", path.display())]
    ReadOnly {
        /// The store file.
        path: PathBuf,
    },
    /// The store, or its folder, may not be read or written by this user.
    #[error("{}: permission denied; tsgraph needs to read and write the store file and its folder", path.display())]
    PermissionDenied {
        /// The store file.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: io::Error,
    },
    /// Reading or writing the store file failed (a full disk, a failing device, …).
    #[error("{}: {what} failed", path.display())]
    Io {
        /// The store file.
        path: PathBuf,
        /// What the store was doing.
        what: String,
        /// The operating system's error.
        #[source]
        source: io::Error,
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
    /// A bulk load was given parts that do not make a graph (a key no node has, a node no
    /// file or two files list, a source's edges split across parts), or was used after one
    /// of its calls failed.
    #[error("bulk load: {0}")]
    InvalidLoad(String),
    /// A write holds more than the store's format can address (32-bit counts and offsets).
    #[error("too large for the store format: {0}")]
    TooLarge(String),
    /// Any other redb error (an API misuse inside the engine, not a property of the file).
    #[error("{context}")]
    Database {
        /// What the store was doing.
        context: String,
        /// The underlying redb error.
        #[source]
        source: redb::Error,
    },
}

fn holder_text(holder: Option<u32>) -> String {
    match holder {
        Some(pid) if pid == std::process::id() => format!("another handle in this process ({pid})"),
        Some(pid) => format!("another tsgraph process (pid {pid})"),
        None => "another tsgraph process".to_owned(),
    }
}

impl StoreError {
    pub(crate) fn corrupted(context: impl Into<String>, detail: impl ToString) -> StoreError {
        StoreError::Corrupted {
            context: context.into(),
            detail: detail.to_string(),
        }
    }

    /// Sorts a redb error by what the user can do about it. `what` is the operation that
    /// failed; the store's path is filled in by [`StoreError::at`] at the engine boundary.
    pub(crate) fn from_redb(what: &str, err: redb::Error) -> StoreError {
        let path = Path::new("");
        match err {
            redb::Error::Corrupted(detail) => StoreError::Corrupted {
                context: what.to_owned(),
                detail,
            },
            redb::Error::Io(source) => StoreError::from_io(path, what, source),
            redb::Error::DatabaseAlreadyOpen | redb::Error::LockProtocolMismatch => {
                StoreError::Locked {
                    path: path.to_path_buf(),
                    holder: None,
                }
            }
            // The previous write failed with an I/O error; redb refuses further use until the
            // file is reopened and recovered, which is an I/O problem, not corruption.
            redb::Error::PreviousIo => StoreError::Io {
                path: path.to_path_buf(),
                what: what.to_owned(),
                source: io::Error::other("an earlier write to the store failed"),
            },
            // Our own tables with other types: a redb file that tsgraph did not write.
            redb::Error::TableTypeMismatch { .. }
            | redb::Error::TableIsMultimap(_)
            | redb::Error::TableIsNotMultimap(_)
            | redb::Error::TypeDefinitionChanged { .. }
            | redb::Error::UpgradeRequired(_) => StoreError::Corrupted {
                context: what.to_owned(),
                detail: format!("not a tsgraph store: {err}"),
            },
            other => StoreError::Database {
                context: what.to_owned(),
                source: other,
            },
        }
    }

    /// An I/O error on the store file: permission problems and bytes that are not a redb file
    /// (redb reports a wrong magic number or a short file as I/O errors) are told apart from
    /// the rest.
    pub(crate) fn from_io(path: &Path, what: &str, source: io::Error) -> StoreError {
        match source.kind() {
            io::ErrorKind::InvalidData | io::ErrorKind::UnexpectedEof => StoreError::Corrupted {
                context: what.to_owned(),
                detail: source.to_string(),
            },
            io::ErrorKind::PermissionDenied | io::ErrorKind::ReadOnlyFilesystem => {
                StoreError::PermissionDenied {
                    path: path.to_path_buf(),
                    source,
                }
            }
            _ => StoreError::Io {
                path: path.to_path_buf(),
                what: what.to_owned(),
                source,
            },
        }
    }

    /// Names the store file in an error made where it was not known: the path of a lock,
    /// permission or I/O error, and a prefix of the context of the others (once: a read
    /// inside a read, such as a table opened on first use, names it once).
    pub(crate) fn at(self, store: &Path) -> StoreError {
        let shown = store.display().to_string();
        let prefixed = |context: String| {
            if context.is_empty() {
                shown.clone()
            } else if context == shown || context.starts_with(&format!("{shown} (")) {
                context
            } else {
                format!("{shown} ({context})")
            }
        };
        match self {
            StoreError::Corrupted { context, detail } => StoreError::Corrupted {
                context: prefixed(context),
                detail,
            },
            StoreError::Database { context, source } => StoreError::Database {
                context: prefixed(context),
                source,
            },
            StoreError::Locked { path, .. } if path.as_os_str().is_empty() => StoreError::Locked {
                path: store.to_path_buf(),
                holder: crate::store::lock_holder(store),
            },
            StoreError::PermissionDenied { path, source } if path.as_os_str().is_empty() => {
                StoreError::PermissionDenied {
                    path: store.to_path_buf(),
                    source,
                }
            }
            StoreError::Io { path, what, source } if path.as_os_str().is_empty() => {
                StoreError::Io {
                    path: store.to_path_buf(),
                    what,
                    source,
                }
            }
            other => other,
        }
    }

    /// Whether rebuilding the store (`tsgraph index --rebuild`) is the remedy.
    pub fn is_corrupted(&self) -> bool {
        matches!(self, StoreError::Corrupted { .. })
    }
}

/// Converts any redb error type into `redb::Error` and then into a [`StoreError`].
pub(crate) trait DbResultExt<T> {
    /// Maps the error, naming the operation that failed.
    fn ctx(self, what: &str) -> Result<T, StoreError>;
}

impl<T, E: Into<redb::Error>> DbResultExt<T> for Result<T, E> {
    fn ctx(self, what: &str) -> Result<T, StoreError> {
        self.map_err(|err| StoreError::from_redb(what, err.into()))
    }
}
