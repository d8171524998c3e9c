//! Who holds the store's lock: on Linux, `/proc/locks` lists every file lock with its process
//! and the file's inode, which is enough to name the process in a "store in use" message.

use std::path::Path;

/// The process holding a lock on the file at `path`, if the system says and it is not the
/// "-1" that open-file-description locks report.
#[cfg(target_os = "linux")]
pub(crate) fn lock_holder(path: &Path) -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    let inode = std::fs::metadata(path).ok()?.ino();
    let locks = std::fs::read_to_string("/proc/locks").ok()?;
    holder_in(&locks, inode)
}

/// Elsewhere the holder is not looked up.
#[cfg(not(target_os = "linux"))]
pub(crate) fn lock_holder(_path: &Path) -> Option<u32> {
    None
}

/// The first process in a `/proc/locks` listing that holds (not waits for) a lock on `inode`.
/// A line reads `1: FLOCK  ADVISORY  WRITE 4242 08:01:1311042 0 EOF`; a waiter's has `->`
/// after the number.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn holder_in(locks: &str, inode: u64) -> Option<u32> {
    locks.lines().find_map(|line| {
        let mut fields = line.split_whitespace();
        let _number = fields.next()?;
        let kind = fields.next()?;
        if kind == "->" {
            return None;
        }
        let _mode = fields.next()?;
        let _access = fields.next()?;
        let pid = fields.next()?;
        let device_inode = fields.next()?;
        let found = device_inode.rsplit(':').next()?.parse::<u64>().ok()?;
        if found != inode {
            return None;
        }
        pid.parse::<u32>().ok()
    })
}

/// The writer's lock: a file beside the store (`graph.redb.lock`) that one tsgraph process at
/// a time holds an exclusive lock on while it may write the store, and whose text is that
/// process's id. Rebuilding a store takes it too, so a store is never replaced under a writer.
pub(crate) struct WriterLock {
    _file: std::fs::File,
}

/// The lock file of the store at `store`.
pub(crate) fn lock_path(store: &Path) -> std::path::PathBuf {
    let mut name = store.file_name().unwrap_or_default().to_os_string();
    name.push(".lock");
    store.with_file_name(name)
}

impl WriterLock {
    /// Takes the writer's lock of the store at `store`, or says who holds it.
    pub(crate) fn acquire(store: &Path) -> Result<WriterLock, crate::error::StoreError> {
        use std::io::{Seek, Write};
        let path = lock_path(store);
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|err| crate::error::StoreError::from_io(store, "lock", err))?;
        match file.try_lock() {
            Ok(()) => {
                // The holder's id, for the "in use by" message of the next one to try.
                let _ = file.set_len(0);
                let _ = file.rewind();
                let _ = write!(file, "{}", std::process::id());
                let _ = file.flush();
                Ok(WriterLock { _file: file })
            }
            Err(std::fs::TryLockError::WouldBlock) => Err(crate::error::StoreError::Locked {
                path: store.to_path_buf(),
                holder: std::fs::read_to_string(&path)
                    .ok()
                    .and_then(|text| text.trim().parse().ok())
                    .or_else(|| lock_holder(&path)),
            }),
            Err(std::fs::TryLockError::Error(err)) => {
                Err(crate::error::StoreError::from_io(store, "lock", err))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::holder_in;

    #[test]
    fn the_holder_is_the_first_lock_on_the_inode_that_is_not_a_waiter() {
        let locks = "1: POSIX  ADVISORY  WRITE 77 00:2f:99 0 EOF\n\
                     2: OFDLCK ADVISORY  WRITE -1 fd:01:1311042 0 EOF\n\
                     2: -> FLOCK  ADVISORY  WRITE 9 fd:01:1311042 0 EOF\n\
                     3: FLOCK  ADVISORY  WRITE 4242 fd:01:1311042 0 EOF\n";
        assert_eq!(holder_in(locks, 1311042), Some(4242));
        assert_eq!(holder_in(locks, 99), Some(77));
        assert_eq!(holder_in(locks, 5), None);
    }
}
