//! Keeping the store file tight. redb reuses the pages a commit frees, but when a commit
//! finds none free it grows the file — by doubling it, below redb's region size — and it
//! gives back only a free tail longer than half of the file's last region. A store written
//! tight therefore doubles at its next commit that needs a page, and stays that way. A writer
//! that saw its commits grow the file compacts it ([`Store::compact`]): redb moves the pages
//! at the end into the free ones and cuts the file after the last page in use. After a grow
//! the pages past the old end are few (the copies the commit wrote), so this costs little.

use redb::CompactionError;

use super::{Handle, Store};
use crate::error::{DbResultExt, StoreError};

impl Store {
    /// The length of the store file now.
    pub fn file_len(&self) -> Result<u64, StoreError> {
        std::fs::metadata(self.path())
            .map(|metadata| metadata.len())
            .map_err(|err| StoreError::from_io(self.path(), "read the size of", err))
    }

    /// Compacts the store file: moves the pages in use to its start and cuts the free
    /// tail. Needs this handle's snapshots gone; `Ok(false)` when a read transaction (of
    /// this process or another) still holds pages, so nothing moved — the next writer that
    /// grows the file tries again. Readers in other processes see no torn state: redb holds
    /// the file's header lock while it moves pages, so a transaction that begins meanwhile
    /// (a query in any process) waits for it to end.
    pub fn compact(&self) -> Result<bool, StoreError> {
        let mut handle = self.db.write();
        let Some(Handle::Writer(db)) = handle.as_deref_mut() else {
            return Err(StoreError::ReadOnly {
                path: self.path().to_path_buf(),
            });
        };
        let compacted = self.run("compact", || match db.compact() {
            Ok(_) => Ok(true),
            Err(
                CompactionError::TransactionInProgress
                | CompactionError::EphemeralSavepointExists
                | CompactionError::PersistentSavepointExists,
            ) => Ok(false),
            Err(err) => Err(err).ctx("compact"),
        });
        // Stamped before the handle is let go, so no commit of this handle comes between.
        let compacted = compacted?;
        if compacted {
            super::verified::stamp(self.path());
        }
        drop(handle);
        Ok(compacted)
    }

    /// Compacts the store file when it is longer than `before` (a length read before some
    /// commits): redb grew it, and it is then about half free. Returns whether it compacted.
    pub fn compact_if_grown(&self, before: u64) -> Result<bool, StoreError> {
        if self.file_len()? <= before {
            return Ok(false);
        }
        self.compact()
    }
}
