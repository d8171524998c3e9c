//! The verified stamp: a small file beside the store (`graph.redb.verified`) holding the size
//! and modification time the store had when a tsgraph writer last knew every byte of it to be
//! sound — right after it verified the whole file, and after each of its own commits.
//!
//! Verifying a store reads all of it (redb checks every page against its checksum); doing that
//! on every open would cost a query hundreds of milliseconds on a large store. A store whose
//! size and modification time still match its stamp has been written by nothing but tsgraph
//! since it was verified, so it is opened without reading it whole; one that does not match
//! (changed behind tsgraph's back, or written by a writer killed before it could stamp) is
//! verified again before anything in it is read.

use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

/// What a store file looks like from outside: its size and modification time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FileState {
    size: u64,
    modified: u128,
}

impl FileState {
    /// The current state of the file at `path`, if it can be read.
    pub(crate) fn of(path: &Path) -> Option<FileState> {
        let metadata = std::fs::metadata(path).ok()?;
        let modified = metadata
            .modified()
            .ok()?
            .duration_since(UNIX_EPOCH)
            .ok()?
            .as_nanos();
        Some(FileState {
            size: metadata.len(),
            modified,
        })
    }
}

/// The stamp file of the store at `store`.
pub(crate) fn stamp_path(store: &Path) -> PathBuf {
    let mut name = store.file_name().unwrap_or_default().to_os_string();
    name.push(".verified");
    store.with_file_name(name)
}

/// Whether the store at `path` still is as it was when last stamped.
pub(crate) fn is_current(path: &Path) -> bool {
    let Some(now) = FileState::of(path) else {
        return false;
    };
    let Ok(text) = std::fs::read_to_string(stamp_path(path)) else {
        return false;
    };
    parse(&text) == Some(now)
}

/// Records the store's current state as sound. A stamp that cannot be written (a read-only
/// folder) only means the next open verifies again.
pub(crate) fn stamp(path: &Path) {
    let Some(now) = FileState::of(path) else {
        return;
    };
    let target = stamp_path(path);
    let text = format!("tsgraph-verified 1 {} {}\n", now.size, now.modified);
    // Written beside and renamed over, so a reader never sees half a stamp.
    let mut temporary = target.clone().into_os_string();
    temporary.push(format!(".{}", std::process::id()));
    let temporary = PathBuf::from(temporary);
    if std::fs::write(&temporary, text).is_ok() && std::fs::rename(&temporary, &target).is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
}

fn parse(text: &str) -> Option<FileState> {
    let mut fields = text.split_whitespace();
    if fields.next()? != "tsgraph-verified" || fields.next()? != "1" {
        return None;
    }
    Some(FileState {
        size: fields.next()?.parse().ok()?,
        modified: fields.next()?.parse().ok()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stamp_matches_until_the_file_changes() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = dir.path().join("graph.redb");
        std::fs::write(&store, b"0123").expect("write");
        assert!(!is_current(&store), "no stamp yet");
        stamp(&store);
        assert!(is_current(&store));
        assert!(stamp_path(&store).ends_with("graph.redb.verified"));
        std::fs::write(&store, b"01234").expect("write");
        assert!(!is_current(&store), "a changed size");
        stamp(&store);
        std::fs::write(stamp_path(&store), "garbage").expect("write");
        assert!(!is_current(&store), "an unreadable stamp");
    }
}
