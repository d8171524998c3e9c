//! The redb-backed graph store: opening, schema checks, snapshots and batch writes.

mod search;
mod snapshot;
mod tables;
mod write;

use std::path::{Path, PathBuf};

use redb::{Database, ReadableDatabase};

use crate::error::{DbResultExt, StoreError};
use crate::record::GraphBatch;
pub use search::TermSet;
pub use snapshot::{AdjacencyGuard, EdgeRef, FileStamp, NodeGuard, Snapshot};
use tables::{META, META_SCHEMA};

/// The layout version of the store. Bump it whenever a table or record layout changes; a
/// store of another version is refused with [`StoreError::SchemaMismatch`].
pub const SCHEMA_VERSION: u32 = 4;

/// Counts of what one write wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StoreStats {
    /// Nodes written by the batch.
    pub nodes: usize,
    /// Edges written by the batch.
    pub edges: usize,
    /// Files written by the batch.
    pub files: usize,
}

/// A graph store in one redb file.
///
/// Readers take [`Snapshot`]s and are never blocked by the writer; each write is one redb
/// transaction, so a failed or interrupted write leaves the previous graph intact.
pub struct Store {
    db: Database,
    path: PathBuf,
}

impl Store {
    /// Opens the store at `path`, creating the file (and its tables) when it does not exist.
    pub fn open_or_create(path: impl AsRef<Path>) -> Result<Store, StoreError> {
        let path = path.as_ref();
        if path.exists() {
            return Store::open(path);
        }
        let context = path.display().to_string();
        let db = Database::create(path).ctx(&context)?;
        let store = Store {
            db,
            path: path.to_path_buf(),
        };
        store.initialise()?;
        Ok(store)
    }

    /// Opens an existing store, checking its schema version. Opening reads no graph data.
    pub fn open(path: impl AsRef<Path>) -> Result<Store, StoreError> {
        let path = path.as_ref();
        let context = path.display().to_string();
        let db = Database::open(path).map_err(|err| match err {
            redb::DatabaseError::Storage(redb::StorageError::Io(io))
                if io.kind() == std::io::ErrorKind::NotFound =>
            {
                StoreError::Database {
                    context: context.clone(),
                    source: redb::Error::Io(io),
                }
            }
            other => StoreError::corrupted(&context, other),
        })?;
        let store = Store {
            db,
            path: path.to_path_buf(),
        };
        store.check_schema()?;
        Ok(store)
    }

    /// The store's file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A consistent read-only view of the graph as of the last commit.
    pub fn snapshot(&self) -> Result<Snapshot, StoreError> {
        Snapshot::new(&self.db, &self.path)
    }

    /// Replaces the whole graph with `batch` in one transaction.
    pub fn replace_all(&self, batch: &GraphBatch) -> Result<StoreStats, StoreError> {
        write::replace_all(&self.db, batch)
    }

    /// Replaces the subgraphs of the batch's files and deletes those of `removed_files`, in one
    /// transaction. Nodes whose IDs survive keep their keys, so edges into them from other
    /// files stay; stored edges into nodes that disappeared are dropped. An edge of the batch
    /// naming a node that is neither in the batch nor left in the store is an error
    /// ([`StoreError::UnknownNode`]), and so is a file both written and removed.
    pub fn replace_files(
        &self,
        batch: &GraphBatch,
        removed_files: &[&str],
    ) -> Result<StoreStats, StoreError> {
        write::replace_files(&self.db, batch, removed_files)
    }

    /// Records new size and modification stamps of files whose contents did not change (so
    /// the next sync need not read them again).
    pub fn update_file_stamps(&self, stamps: &[(String, u64, u64)]) -> Result<(), StoreError> {
        write::update_file_stamps(&self.db, stamps)
    }

    /// Stores a metadata value (project root, config hash, index summary, …).
    pub fn set_meta(&self, key: &str, value: &[u8]) -> Result<(), StoreError> {
        let txn = self.db.begin_write().ctx("begin write")?;
        {
            let mut meta = txn.open_table(META).ctx("open meta")?;
            meta.insert(key, value).ctx("write meta")?;
        }
        txn.commit().ctx("commit meta")
    }

    fn initialise(&self) -> Result<(), StoreError> {
        let txn = self.db.begin_write().ctx("begin write")?;
        write::create_tables(&txn)?;
        txn.commit().ctx("commit new store")
    }

    fn check_schema(&self) -> Result<(), StoreError> {
        let context = self.path.display().to_string();
        let txn = self.db.begin_read().ctx(&context)?;
        let meta = txn
            .open_table(META)
            .map_err(|err| StoreError::corrupted(&context, format!("no metadata table ({err})")))?;
        let found = match meta.get(META_SCHEMA).ctx(&context)? {
            Some(bytes) => decode_u32(bytes.value())
                .ok_or_else(|| StoreError::corrupted(&context, "malformed schema version"))?,
            None => return Err(StoreError::corrupted(&context, "no schema version")),
        };
        if found != SCHEMA_VERSION {
            return Err(StoreError::SchemaMismatch {
                path: self.path.clone(),
                found,
                expected: SCHEMA_VERSION,
            });
        }
        Ok(())
    }
}

pub(crate) fn decode_u32(bytes: &[u8]) -> Option<u32> {
    Some(u32::from_le_bytes(bytes.try_into().ok()?))
}

#[cfg(test)]
mod tests;
