//! A whole walk's findings kept in the store, so that the next process's sync can tell, by
//! stamps alone, that a walk would find the same files, and skip it.
//!
//! A walk reads every folder, and for each the ignore files it may hold; on the 1M-line
//! synthetic monorepo that is most of a new process's sync after a one-file edit. What it
//! finds depends only on the folders' entries and the ignore files' contents (and the
//! files' sizes, against the size limit). On POSIX file systems adding, removing or
//! renaming an entry moves its folder's change time (ctime, which also moves with
//! permissions and with any setting of the times, and which nobody can set back), so a
//! [`Listing`] records the change time of every folder the walk read and the size and
//! change time of every ignore file it may have read; while all of them are unchanged, the
//! listed files are the files a walk finds, and only they (and the configuration files)
//! are looked at, for their stamps.
//!
//! **Invariant:** a listing is used only when it says exactly what a walk would find now:
//! - it is made only from a walk that met no error, no symbolic link, no `.git` file and no
//!   name that is not UTF-8 (what a folder's time does not vouch for);
//! - every folder and ignore file it records had last changed [`SETTLED`] before the walk
//!   began: a change made in the same tick of the file system's clock as the recorded one
//!   would leave the time as it was (the "racily clean" case git knows). The file system's
//!   clock is taken to be the machine's, give or take less than that (a network file
//!   system whose server's clock lags more is not);
//! - it is used only while every folder's time and every ignore file's stamp is as recorded
//!   (an ignore file that was absent still is), and every listed file is still there;
//!   anything else is a whole walk, which makes the next listing.

use std::path::Path;
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

use crate::walk::{self, SourceFile, WalkResult};

/// The store meta key of the listing.
pub(crate) const LISTING_META_KEY: &str = "walk_listing";

/// The encoding's version, its first byte: also to be raised with any change to what a walk
/// finds or reads, so that no listing of the old rules is taken.
const VERSION: u8 = 2;

/// How long before a walk a folder or ignore file must have last changed for the walk to be
/// listed: longer than any file system's clock tick (FAT's is two seconds).
pub(crate) const SETTLED: Duration = Duration::from_secs(5);

/// What a whole walk found and what decided it, with their stamps.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Listing {
    /// Every folder read (relative, "" the root) with its change time.
    folders: Vec<(String, u64)>,
    /// Every ignore file the walk may have read, with its size and change time, or `None`
    /// when it was not there.
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
    walk_whole_settled(root, max_file_size, SETTLED)
}

/// [`walk_whole`], listing what had last changed `settled` before the walk began.
fn walk_whole_settled(
    root: &Path,
    max_file_size: u64,
    settled: Duration,
) -> (WalkResult, Option<Listing>) {
    let began = SystemTime::now();
    let walked = walk::walk(root, max_file_size);
    let listing = Listing::of(root, &walked, began.checked_sub(settled));
    (walked, listing)
}

impl Listing {
    /// The listing of `walked`, a whole walk of `root`, if every folder and ignore file it
    /// read had last changed before `settled`; `None` when it cannot vouch for a later walk
    /// (see the module's invariant).
    fn of(root: &Path, walked: &WalkResult, settled: Option<SystemTime>) -> Option<Listing> {
        if !walked.errors.is_empty() || walked.seen.unlistable {
            return None;
        }
        let settled = walk::nanos(settled?)?;
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
    /// The looks are spread over two threads, as the walk's are over every core: each waits
    /// on the kernel alone.
    pub(crate) fn walk_again(&self, root: &Path, max_file_size: u64) -> Option<WalkResult> {
        let folders_hold = on_threads(&self.folders, |(folder, changed)| {
            let metadata = std::fs::symlink_metadata(root.join(folder)).ok()?;
            let time = walk::change_time(&metadata);
            (metadata.is_dir() && time == Some(*changed)).then_some(())
        })
        .is_some();
        let ignores_hold =
            (self.ignore_files.iter()).all(|(file, stamp)| ignore_stamp(root, file) == *stamp);
        if !folders_hold || !ignores_hold {
            return None;
        }
        let mut walked = WalkResult::default();
        for file in on_threads(&self.sources, |relative| look_at(root, relative))? {
            walk::add_found(&mut walked, file, max_file_size);
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

/// `look` applied to every item, in order, on two threads (`crate::chunks`); `None` when one
/// look gives none.
fn on_threads<T: Sync, R: Send>(
    items: &[T],
    look: impl Fn(&T) -> Option<R> + Sync,
) -> Option<Vec<R>> {
    /// Looks a thread takes at a time.
    const CHUNK: usize = 256;
    let looked = crate::chunks::map_on_two_threads(items, CHUNK, || (), |(), item| look(item));
    looked.ok()?.into_iter().collect()
}

/// The file at `relative` as the walk finds it (size and time from one look); `None` when
/// it is not a file any more.
fn look_at(root: &Path, relative: &str) -> Option<SourceFile> {
    let absolute = root.join(relative);
    let metadata = std::fs::symlink_metadata(&absolute).ok()?;
    if !metadata.is_file() {
        return None;
    }
    let (size, modified) = walk::stamp_of(&metadata);
    Some(SourceFile {
        size,
        modified,
        absolute,
        relative: relative.to_owned(),
    })
}

/// An ignore file's size and change time, `None` when it is not there (a time the system
/// does not give reads as the latest, which no listing takes).
fn ignore_stamp(root: &Path, relative: &str) -> Option<(u64, u64)> {
    let metadata = std::fs::metadata(root.join(relative)).ok()?;
    Some((
        metadata.len(),
        walk::change_time(&metadata).unwrap_or(u64::MAX),
    ))
}

// The tests count on Unix's change times, which every change moves.
#[cfg(all(test, unix))]
mod tests {
    #![allow(clippy::unwrap_used)] // A failure is the test failing.

    use super::*;

    /// Long enough for the file system's coarse clock to tick over: a change made after a
    /// listing never shares a time with what the listing recorded.
    const TICKS: Duration = Duration::from_millis(30);

    /// A project: a source file in the root and in a folder, a configuration, an ignored
    /// folder, and one file over the tests' size limit of 100 bytes.
    fn project() -> tempfile::TempDir {
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
        dir
    }

    /// The listing of a whole walk of `root` once its last changes are a few ticks old.
    fn listing_of(root: &Path) -> Option<Listing> {
        std::thread::sleep(TICKS);
        let listing = walk_whole_settled(root, 100, TICKS / 2).1;
        std::thread::sleep(TICKS);
        listing
    }

    /// What a walk found, as comparable text.
    fn found(walked: &WalkResult) -> Vec<String> {
        let files =
            (walked.files.iter()).map(|f| format!("{} {} {}", f.relative, f.size, f.modified));
        let configs = (walked.configs.iter()).map(|c| format!("config {} {}", c.relative, c.size));
        let large = (walked.too_large.iter()).map(|(path, size)| format!("large {path} {size}"));
        files.chain(configs).chain(large).collect()
    }

    #[test]
    fn a_listing_gives_what_a_walk_finds_while_nothing_moved() {
        let dir = project();
        let listing = listing_of(dir.path()).unwrap();
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
        let dir = project();
        let (walked, listing) = walk_whole(dir.path(), 100);
        assert!(listing.is_none());
        assert!(walked.files.iter().any(|f| f.relative == "src/b.ts"));
    }

    /// A change to a project, with what it is.
    type Change = (&'static str, fn(&Path));

    #[test]
    fn every_change_to_what_decides_a_walk_ends_the_listing() {
        let changes: [Change; 9] = [
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
                std::fs::write(root.join(".git/info/exclude"), "src/\n").unwrap();
            }),
            ("an ignored ignore file edited", |root| {
                std::fs::write(root.join("src/.ignore"), "b.ts\n").unwrap();
            }),
            ("a file removed behind its folder's time put back", |root| {
                let src = std::fs::File::open(root.join("src")).unwrap();
                let modified = src.metadata().unwrap().modified().unwrap();
                std::fs::remove_file(root.join("src/b.ts")).unwrap();
                src.set_modified(modified).unwrap();
            }),
            ("a folder's permissions changed", |root| {
                use std::os::unix::fs::PermissionsExt;
                let permissions = std::fs::Permissions::from_mode(0o700);
                std::fs::set_permissions(root.join("src"), permissions).unwrap();
            }),
        ];
        for (what, change) in changes {
            let dir = project();
            // A `.git` folder, so that only its exclude file changes in that case, and an
            // ignore file that the root's ignores, which the walker reads all the same.
            std::fs::create_dir_all(dir.path().join(".git/info")).unwrap();
            std::fs::write(dir.path().join(".gitignore"), "ignored/\n.ignore\n").unwrap();
            std::fs::write(dir.path().join("src/.ignore"), "nothing\n").unwrap();
            let listing = listing_of(dir.path()).expect(what);
            assert!(listing.walk_again(dir.path(), 100).is_some(), "{what}");
            change(dir.path());
            assert!(listing.walk_again(dir.path(), 100).is_none(), "{what}");
        }
    }

    #[test]
    fn a_walk_that_meets_a_link_a_git_file_or_an_unreadable_ignore_file_is_not_listed() {
        let dir = project();
        std::os::unix::fs::symlink(dir.path().join("a.ts"), dir.path().join("src/l.ts")).unwrap();
        assert!(listing_of(dir.path()).is_none());
        let dir = project();
        std::fs::write(dir.path().join("src/.git"), "gitdir: /elsewhere\n").unwrap();
        assert!(listing_of(dir.path()).is_none());
        // An ignore file the walker cannot read (a folder by that name cannot be read as
        // one, whoever asks): it goes on without its rules, so the walk is not listed.
        let dir = project();
        std::fs::create_dir(dir.path().join("src/.ignore")).unwrap();
        assert!(listing_of(dir.path()).is_none());
        assert!(listing_of(project().path()).is_some());
    }
}
