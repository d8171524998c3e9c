//! The redb-backed graph store: opening (with an integrity check), schema checks, snapshots and
//! batch writes, all behind the panic boundary of `guard.rs`.

mod guard;
mod lock;
mod snapshot;
mod tables;
mod write;

use std::path::Path;

use redb::{Database, ReadableDatabase};

use crate::error::{DbResultExt, StoreError};
use crate::record::GraphBatch;
use guard::{Boundary, Quiet};
pub(crate) use lock::lock_holder;
pub use snapshot::{AdjacencyGuard, EdgeRef, FileStamp, NodeGuard, Snapshot};
use tables::{META, META_SCHEMA};

/// The layout version of the store. Bump it whenever a table or record layout changes; a
/// store of another version is refused with [`StoreError::SchemaMismatch`].
pub const SCHEMA_VERSION: u32 = 3;

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
/// transaction, so a failed or interrupted write leaves the previous graph intact. Opening an
/// existing store verifies the checksum of every page it holds, so bytes changed outside redb
/// are reported as [`StoreError::Corrupted`] rather than read; a panic inside redb is reported
/// the same way.
pub struct Store {
    /// Dropped by hand, inside the panic boundary: closing may read and write the file.
    db: Quiet<Database>,
    boundary: Boundary,
}

impl Store {
    /// Opens the store at `path`, creating the file (and its tables) when it does not exist.
    pub fn open_or_create(path: impl AsRef<Path>) -> Result<Store, StoreError> {
        let path = path.as_ref();
        // An empty file is a store whose creation was interrupted before redb wrote anything.
        match std::fs::metadata(path) {
            Ok(metadata) if metadata.len() > 0 => return Store::open(path),
            Ok(_) => {}
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
            Err(err) => return Err(StoreError::from_io(path, "open", err)),
        }
        let boundary = Boundary::new(path);
        let db = boundary.run("create", || Database::create(path).ctx("create"))?;
        let store = Store {
            db: Quiet::new(db),
            boundary,
        };
        store.initialise()?;
        Ok(store)
    }

    /// Opens an existing store: checks the integrity of the file and its schema version.
    ///
    /// The check is redb's, run as part of the open: every page reachable from the latest
    /// commit is read once and checked against the checksum its parent holds before anything
    /// in it is trusted (a plain open would first read redb's own allocator records unchecked,
    /// and a damaged page reference there made it allocate gigabytes). A store whose latest
    /// commit fails the check is [`StoreError::Corrupted`]: every commit is a two-phase one
    /// ([`begin_write`]), so redb does not fall back to the commit before. A store whose last
    /// writer was killed passes: its latest commit is the last one that completed.
    pub fn open(path: impl AsRef<Path>) -> Result<Store, StoreError> {
        let path = path.as_ref();
        let boundary = Boundary::new(path);
        let mut builder = Database::builder();
        builder.set_check_integrity_on_open(true);
        let db = boundary.run("open", || builder.open(path).ctx("open"))?;
        let store = Store {
            db: Quiet::new(db),
            boundary,
        };
        store.check_schema()?;
        Ok(store)
    }

    /// The store's file.
    pub fn path(&self) -> &Path {
        self.boundary.path()
    }

    /// A consistent read-only view of the graph as of the last commit.
    pub fn snapshot(&self) -> Result<Snapshot, StoreError> {
        Snapshot::new(&self.db, self.boundary.clone())
    }

    /// Replaces the whole graph with `batch` in one transaction.
    pub fn replace_all(&self, batch: &GraphBatch) -> Result<StoreStats, StoreError> {
        self.run("write", || write::replace_all(&self.db, batch))
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
        self.run("write", || {
            write::replace_files(&self.db, batch, removed_files)
        })
    }

    /// Records new size and modification stamps of files whose contents did not change (so
    /// the next sync need not read them again).
    pub fn update_file_stamps(&self, stamps: &[(String, u64, u64)]) -> Result<(), StoreError> {
        self.run("write", || write::update_file_stamps(&self.db, stamps))
    }

    /// Stores a metadata value (project root, config hash, index summary, …).
    pub fn set_meta(&self, key: &str, value: &[u8]) -> Result<(), StoreError> {
        self.run("write meta", || {
            let txn = begin_write(&self.db)?;
            {
                let mut meta = txn.open_table(META).ctx("open meta")?;
                meta.insert(key, value).ctx("write meta")?;
            }
            txn.commit().ctx("commit meta")
        })
    }

    /// Runs `f` inside the panic boundary and names the store file in its error.
    fn run<T>(
        &self,
        what: &str,
        f: impl FnOnce() -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        self.boundary.run(what, f)
    }

    fn initialise(&self) -> Result<(), StoreError> {
        self.run("initialise", || {
            let txn = begin_write(&self.db)?;
            write::create_tables(&txn)?;
            txn.commit().ctx("commit new store")
        })
    }

    fn check_schema(&self) -> Result<(), StoreError> {
        let found = self.run("read schema version", || {
            let txn = self.db.begin_read().ctx("begin read")?;
            let meta = match txn.open_table(META) {
                Ok(meta) => meta,
                // Created, then interrupted before its tables were: an empty store.
                Err(redb::TableError::TableDoesNotExist(_))
                    if txn.list_tables().ctx("list tables")?.next().is_none() =>
                {
                    return Ok(None);
                }
                Err(err) => {
                    return Err(StoreError::corrupted(
                        "",
                        format!("no metadata table ({err})"),
                    ));
                }
            };
            match meta.get(META_SCHEMA).ctx("read meta")? {
                Some(bytes) => decode_u32(bytes.value())
                    .map(Some)
                    .ok_or_else(|| StoreError::corrupted("", "malformed schema version")),
                None => Err(StoreError::corrupted("", "no schema version")),
            }
        })?;
        let Some(found) = found else {
            return self.initialise();
        };
        if found != SCHEMA_VERSION {
            return Err(StoreError::SchemaMismatch {
                path: self.path().to_path_buf(),
                found,
                expected: SCHEMA_VERSION,
            });
        }
        Ok(())
    }
}

/// Begins a write transaction that commits in two phases: the commit slot is written and
/// synced before the header points to it, so redb never has to guess which commit is the
/// latest. A latest commit that later fails its check is then reported as corrupt rather than
/// silently replaced by the commit before it.
pub(crate) fn begin_write(db: &Database) -> Result<redb::WriteTransaction, StoreError> {
    let mut txn = db.begin_write().ctx("begin write")?;
    txn.set_two_phase_commit(true);
    Ok(txn)
}

pub(crate) fn decode_u32(bytes: &[u8]) -> Option<u32> {
    Some(u32::from_le_bytes(bytes.try_into().ok()?))
}

#[cfg(test)]
mod tests;
