//! A whole walk's findings kept in the store, so that the next process's sync can tell, by
//! stamps alone, that a walk would find the same files, and skip it.
//!
//! A walk reads every folder, and for each the ignore files it may hold; on the 1M-line
//! synthetic monorepo that is most of a new process's sync after a one-file edit. What it
//! finds depends only on the folders' entries and the ignore files' contents (and the
//! files' sizes, against the size limit). On POSIX file systems adding, removing or
//! renaming an entry changes its folder's modification time, so a [`Listing`] records the
//! time of every folder the walk read and the stamp of every ignore file it may have read;
//! while all of them are unchanged, the listed files are the files a walk finds, and only
//! they (and the configuration files) are looked at, for their stamps.
//!
//! **Invariant:** a listing is used only when it says exactly what a walk would find now:
//! - it is made only from a walk that met no error, no symbolic link, no `.git` file and no
//!   name that is not UTF-8 (what a folder's time does not vouch for);
//! - every folder and ignore file it records had last changed [`SETTLED`] before the walk
//!   began: a change made in the same tick of the file system's clock as the recorded one
//!   would leave the time as it was (the "racily clean" case git knows);
//! - it is used only while every folder's time and every ignore file's stamp is as recorded
//!   (an ignore file that was absent still is), and every listed file is still there;
//!   anything else is a whole walk, which makes the next listing.

use std::path::Path;
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

use crate::walk::{self, SourceFile, WalkResult};

/// The store meta key of the listing.
pub(crate) const LISTING_META_KEY: &str = "walk_listing";

/// The encoding's version, its first byte.
const VERSION: u8 = 1;

/// How long before a walk a folder or ignore file must have last changed for the walk to be
/// listed: longer than any file system's clock tick (FAT's is two seconds).
const SETTLED: Duration = Duration::from_secs(5);

/// What a whole walk found and what decided it, with their stamps.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Listing {
    /// Every folder read (relative, "" the root) with its modification time.
    folders: Vec<(String, u64)>,
    /// Every ignore file the walk may have read, with its size and modification time, or
    /// `None` when it was not there.
    ignore_files: Vec<(String, Option<(u64, u64)>)>,
    /// The source files (those over the size limit too), relative, ascending.
    sources: Vec<String>,
    /// The configuration files, relative, ascending.
    configs: Vec<String>,
}

/// The walk of `root`: from the listing `kept` (a store's [`LISTING_META_KEY`]) when it
/// still holds, else a whole walk. Returns the walk, whether it came from the listing, and
/// the encoding of a new listing when the walk made one that differs from `kept`.
pub(crate) fn walk(
    root: &Path,
    max_file_size: u64,
    kept: Option<&[u8]>,
) -> (WalkResult, bool, Option<Vec<u8>>) {
    if let Some(walked) = kept
        .and_then(Listing::decode)
        .and_then(|listing| listing.walk_again(root, max_file_size))
    {
        return (walked, true, None);
    }
    let (walked, listing) = walk_whole(root, max_file_size);
    let encoded = listing.map(|listing| listing.encode());
    let new = encoded.filter(|bytes| Some(bytes.as_slice()) != kept);
    (walked, false, new)
}

/// A whole walk of `root`, and its listing when one can be made ([`Listing::of`]).
pub(crate) fn walk_whole(root: &Path, max_file_size: u64) -> (WalkResult, Option<Listing>) {
    let began = SystemTime::now();
    let walked = walk::walk(root, max_file_size);
    let listing = Listing::of(root, &walked, began);
    (walked, listing)
}

impl Listing {
    /// The listing of `walked`, a whole walk of `root` that `began` then; `None` when it
    /// cannot vouch for a later walk (see the module's invariant).
    pub(crate) fn of(root: &Path, walked: &WalkResult, began: SystemTime) -> Option<Listing> {
        if !walked.errors.is_empty() || walked.seen.unlistable {
            return None;
        }
        let settled = walk::nanos(began.checked_sub(SETTLED)?)?;
        let mut folders = Vec::with_capacity(walked.seen.folders.len());
        for (folder, modified) in &walked.seen.folders {
            let modified = (*modified).filter(|&time| time < settled)?;
            folders.push((folder.clone(), modified));
        }
        let mut ignore_files = Vec::with_capacity(walked.seen.ignore_files.len());
        for file in &walked.seen.ignore_files {
            let stamp = ignore_stamp(root, file);
            if stamp.is_some_and(|(_, modified)| modified >= settled) {
                return None;
            }
            ignore_files.push((file.clone(), stamp));
        }
        let mut sources: Vec<String> = (walked.files.iter().map(|f| f.relative.clone()))
            .chain(walked.too_large.iter().map(|(path, _)| path.clone()))
            .collect();
        sources.sort();
        let configs = walked.configs.iter().map(|c| c.relative.clone()).collect();
        Some(Listing {
            folders,
            ignore_files,
            sources,
            configs,
        })
    }

    /// The walk of `root` this listing stands for, if every folder and ignore file is as
    /// recorded and every listed file is there: each file looked at once, for its stamp.
    ///
    /// The looks are spread over every core, as the walk's are: each waits on the kernel
    /// alone.
    pub(crate) fn walk_again(&self, root: &Path, max_file_size: u64) -> Option<WalkResult> {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let folders_hold = on_threads(&self.folders, threads, |(folder, modified)| {
            let metadata = std::fs::symlink_metadata(root.join(folder)).ok()?;
            let time = metadata.modified().ok().and_then(walk::nanos);
            (metadata.is_dir() && time == Some(*modified)).then_some(())
        })
        .is_some();
        let ignores_hold =
            (self.ignore_files.iter()).all(|(file, stamp)| ignore_stamp(root, file) == *stamp);
        if !folders_hold || !ignores_hold {
            return None;
        }
        let mut walked = WalkResult::default();
        for file in on_threads(&self.sources, threads, |relative| look_at(root, relative))? {
            if file.size > max_file_size {
                walked.too_large.push((file.relative, file.size));
            } else {
                walked.files.push(file);
            }
        }
        for relative in &self.configs {
            walked.configs.push(look_at(root, relative)?);
        }
        Some(walked)
    }

    pub(crate) fn encode(&self) -> Vec<u8> {
        let raw = postcard::to_stdvec(self).unwrap_or_default();
        let mut bytes = vec![VERSION];
        bytes.extend(lz4_flex::block::compress_prepend_size(&raw));
        bytes
    }

    /// The listing `bytes` encode; `None` for another version or damaged bytes (the walk is
    /// then made whole).
    pub(crate) fn decode(bytes: &[u8]) -> Option<Listing> {
        let (&version, compressed) = bytes.split_first()?;
        if version != VERSION {
            return None;
        }
        let raw = lz4_flex::block::decompress_size_prepended(compressed).ok()?;
        postcard::from_bytes(&raw).ok()
    }
}

/// `look` applied to every item, in order, the items split among `threads` scoped threads;
/// `None` as soon as one look gives none.
fn on_threads<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    look: impl Fn(&T) -> Option<R> + Sync,
) -> Option<Vec<R>> {
    // Fewer items than this per thread are not worth a thread.
    const LEAST: usize = 256;
    let threads = threads.min(items.len() / LEAST).max(1);
    if threads == 1 {
        return items.iter().map(&look).collect();
    }
    let part = items.len().div_ceil(threads);
    let look = &look;
    std::thread::scope(|scope| {
        let parts: Vec<_> = (items.chunks(part))
            .map(|chunk| scope.spawn(move || chunk.iter().map(look).collect::<Option<Vec<R>>>()))
            .collect();
        let mut all = Vec::with_capacity(items.len());
        for part in parts {
            all.extend(part.join().ok()??);
        }
        Some(all)
    })
}

/// The file at `relative` as the walk finds it (size and time from one look); `None` when
/// it is not a file any more.
fn look_at(root: &Path, relative: &str) -> Option<SourceFile> {
    let absolute = root.join(relative);
    let metadata = std::fs::symlink_metadata(&absolute).ok()?;
    if !metadata.is_file() {
        return None;
    }
    let modified = metadata.modified().ok().and_then(walk::nanos).unwrap_or(0);
    Some(SourceFile {
        size: metadata.len(),
        modified,
        absolute,
        relative: relative.to_owned(),
    })
}

/// An ignore file's size and modification time, `None` when it is not there (a time the
/// system does not give reads as the latest, which no listing takes).
fn ignore_stamp(root: &Path, relative: &str) -> Option<(u64, u64)> {
    let metadata = std::fs::metadata(root.join(relative)).ok()?;
    let modified = metadata.modified().ok().and_then(walk::nanos);
    Some((metadata.len(), modified.unwrap_or(u64::MAX)))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // A failure is the test failing.

    use super::*;

    /// A project whose folders and ignore files last changed a minute ago: a source file
    /// in the root and in a folder, a configuration, an ignored folder, and one file over
    /// the test's size limit of 100 bytes.
    fn settled_project() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("src")).unwrap();
        std::fs::create_dir_all(root.join("ignored")).unwrap();
        std::fs::write(root.join("a.ts"), "export const a = 1;\n").unwrap();
        std::fs::write(root.join("src/b.ts"), "export const b = 2;\n").unwrap();
        std::fs::write(root.join("src/big.ts"), "x".repeat(200)).unwrap();
        std::fs::write(root.join("tsconfig.json"), "{}").unwrap();
        std::fs::write(root.join(".gitignore"), "ignored/\n").unwrap();
        std::fs::write(root.join("ignored/x.ts"), "export const x = 3;\n").unwrap();
        settle(root);
        dir
    }

    /// Puts the times of every folder and ignore file under `root` a minute back.
    fn settle(root: &Path) {
        let back = SystemTime::now() - Duration::from_secs(60);
        let mut folders = vec![root.to_path_buf()];
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(&folder).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    folders.push(path);
                } else if path.file_name().unwrap().to_string_lossy().starts_with('.') {
                    std::fs::File::options()
                        .append(true)
                        .open(&path)
                        .unwrap()
                        .set_modified(back)
                        .unwrap();
                }
            }
            std::fs::File::open(&folder)
                .unwrap()
                .set_modified(back)
                .unwrap();
        }
    }

    /// What a walk found, as comparable text.
    fn found(walked: &WalkResult) -> Vec<String> {
        let files =
            (walked.files.iter()).map(|f| format!("{} {} {}", f.relative, f.size, f.modified));
        let configs = (walked.configs.iter()).map(|c| format!("config {} {}", c.relative, c.size));
        let large = (walked.too_large.iter()).map(|(path, size)| format!("large {path} {size}"));
        files.chain(configs).chain(large).collect()
    }

    fn listing_of(root: &Path) -> Listing {
        let (_, listing) = walk_whole(root, 100);
        listing.expect("a settled walk is listed")
    }

    #[test]
    fn a_listing_gives_what_a_walk_finds_while_nothing_moved() {
        let dir = settled_project();
        let listing = listing_of(dir.path());
        let again = listing.walk_again(dir.path(), 100).unwrap();
        let walked = walk::walk(dir.path(), 100);
        assert_eq!(found(&again), found(&walked));
        assert_eq!(
            found(&again),
            [
                format!("a.ts 20 {}", walked.files[0].modified),
                format!("src/b.ts 20 {}", walked.files[1].modified),
                "config tsconfig.json 2".to_owned(),
                "large src/big.ts 200".to_owned(),
            ]
        );
        // A larger limit takes the large file in, as a walk does.
        assert_eq!(
            found(&listing.walk_again(dir.path(), 1000).unwrap()),
            found(&walk::walk(dir.path(), 1000))
        );
        // It survives its encoding; other bytes are no listing.
        let bytes = listing.encode();
        assert_eq!(Listing::decode(&bytes), Some(listing));
        assert_eq!(Listing::decode(&bytes[..bytes.len() / 2]), None);
        assert_eq!(Listing::decode(&[VERSION + 1]), None);
        assert_eq!(Listing::decode(&[]), None);
    }

    #[test]
    fn a_folder_that_changed_lately_is_not_listed() {
        let dir = settled_project();
        std::fs::write(dir.path().join("src/c.ts"), "export const c = 1;\n").unwrap();
        let (walked, listing) = walk_whole(dir.path(), 100);
        assert!(listing.is_none());
        assert!(walked.files.iter().any(|f| f.relative == "src/c.ts"));
    }

    /// A change to a project, with what it is.
    type Change = (&'static str, fn(&Path));

    #[test]
    fn every_change_to_what_decides_a_walk_ends_the_listing() {
        let changes: [Change; 6] = [
            ("a file added", |root| {
                std::fs::write(root.join("src/c.ts"), "x").unwrap()
            }),
            ("a file removed", |root| {
                std::fs::remove_file(root.join("src/b.ts")).unwrap()
            }),
            ("a folder added", |root| {
                std::fs::create_dir(root.join("src/deep")).unwrap()
            }),
            ("an ignore file edited", |root| {
                std::fs::write(root.join(".gitignore"), "nothing/\n").unwrap()
            }),
            ("an ignore file added", |root| {
                std::fs::write(root.join("src/.tsgraphignore"), "b.ts\n").unwrap()
            }),
            ("a repository's excludes added", |root| {
                std::fs::create_dir_all(root.join(".git/info")).unwrap();
                std::fs::write(root.join(".git/info/exclude"), "src/\n").unwrap();
            }),
        ];
        for (what, change) in changes {
            let dir = settled_project();
            // A `.git` folder present before the listing, so that only its exclude file
            // changes in the last case.
            std::fs::create_dir_all(dir.path().join(".git/info")).unwrap();
            settle(dir.path());
            let listing = listing_of(dir.path());
            assert!(listing.walk_again(dir.path(), 100).is_some(), "{what}");
            change(dir.path());
            assert!(listing.walk_again(dir.path(), 100).is_none(), "{what}");
        }
    }

    #[test]
    fn a_file_gone_behind_a_folder_put_back_ends_the_listing() {
        let dir = settled_project();
        let listing = listing_of(dir.path());
        std::fs::remove_file(dir.path().join("src/b.ts")).unwrap();
        settle(dir.path());
        assert!(listing.walk_again(dir.path(), 100).is_none());
    }

    #[cfg(unix)]
    #[test]
    fn a_walk_that_meets_a_link_is_not_listed() {
        let dir = settled_project();
        std::os::unix::fs::symlink(dir.path().join("a.ts"), dir.path().join("src/l.ts")).unwrap();
        settle(dir.path());
        assert!(walk_whole(dir.path(), 100).1.is_none());
    }
}
