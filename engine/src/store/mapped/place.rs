//! Where graph files live and how one takes its place.
//!
//! A graph file sits beside its store, named by the store's file name and the store state it
//! holds: `graph.redb.<store>-<commits>.graph` (hexadecimal). Commit order, so that a crash at
//! any point leaves a store whose readers are right:
//! 1. write the file aside (`….graph.tmp.<pid>.<n>`, a name per build) and sync it;
//! 2. rename it into place and sync the folder;
//! 3. commit its name and the state it holds in the store's metadata (`graph_file`): from
//!    this commit on, readers use it while the store is at that state plus this commit;
//! 4. delete every other graph file of the same store number (on POSIX a reader's mapping
//!    survives the delete; a reader that finds the file gone reads redb's tables).
//!
//! A crash before 3 leaves a file no commit names: swept at the next naming, or at the next
//! writable open when it is older than the named file (or no file is named). Where a mapped
//! file cannot be deleted (Windows), the delete fails quietly and is tried again at the next
//! sweep.

use std::path::Path;

use crate::store::Generation;

/// The metadata value naming the current graph file: the state it holds, then its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct GraphFileName {
    /// The store state the file was built from.
    pub(crate) built: Generation,
    /// The file's name, in the store's folder.
    pub(crate) name: String,
}

impl GraphFileName {
    /// The name of the graph file of the store at `home` for the state `built`.
    pub(crate) fn new(home: &Path, built: Generation) -> GraphFileName {
        GraphFileName {
            built,
            name: format!(
                "{}{:016x}-{:016x}{SUFFIX}",
                prefix(home),
                built.store,
                built.commits
            ),
        }
    }

    /// Whether the file serves a snapshot of the store at `generation` (through the overlay
    /// of what changed since): a file of this store, built at an earlier state. The commit
    /// that names a file comes after the state it holds, so a named file always serves.
    pub(crate) fn serves(&self, generation: Generation) -> bool {
        self.built.store == generation.store && self.built.commits < generation.commits
    }

    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = self.built.to_bytes().to_vec();
        bytes.extend_from_slice(self.name.as_bytes());
        bytes
    }

    /// `None` for a value that is not one (a damaged name is read as no graph file: redb's
    /// tables still answer).
    pub(crate) fn from_bytes(bytes: &[u8]) -> Option<GraphFileName> {
        let built = Generation::from_bytes(bytes.get(..16)?)?;
        let name = std::str::from_utf8(bytes.get(16..)?).ok()?;
        // A name, never a path: nothing outside the store's folder is opened.
        if name.is_empty() || name.contains(['/', '\\']) || name.starts_with('.') {
            return None;
        }
        Some(GraphFileName {
            built,
            name: name.to_owned(),
        })
    }
}

const SUFFIX: &str = ".graph";

fn prefix(home: &Path) -> String {
    format!(
        "{}.",
        home.file_name().unwrap_or_default().to_string_lossy()
    )
}

/// Which graph files a sweep deletes, besides never the one kept.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Sweep {
    /// After naming a file of store `store`: every other file of that store number (a store
    /// a rebuild is replacing keeps its files until its own next writable open, so a failed
    /// rebuild leaves it as it was).
    AfterNaming { store: u64 },
    /// At a writable open of store `store`, whose named file (if any) was built at commit
    /// `named`: files of other store numbers, and this store's files older than the named
    /// one (a newer one may be a file a builder beside the writer has yet to name; a crashed
    /// builder's goes at the next naming).
    AtOpen { store: u64, named: Option<u64> },
}

/// Deletes graph files of the store at `home` (and their stamps, unfinished copies and
/// stamps left half-written) as `sweep` says, never `keep`. Only names of the exact form
/// `<store file name>.<16 hex>-<16 hex>.graph…` are touched. Best effort: what cannot be
/// deleted now is tried again next time.
pub(crate) fn sweep_orphans(home: &Path, keep: Option<&str>, sweep: Sweep) {
    let Some(folder) = home.parent() else {
        return;
    };
    let folder = if folder.as_os_str().is_empty() {
        Path::new(".")
    } else {
        folder
    };
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    let prefix = prefix(home);
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            continue;
        };
        let Some((number, commits, file)) = parse_name(&prefix, name) else {
            continue;
        };
        if keep.is_some_and(|keep| keep == file) {
            continue;
        }
        let goes = match sweep {
            Sweep::AfterNaming { store } => number == store,
            Sweep::AtOpen { store, named } => {
                number != store || named.is_none_or(|named| commits < named)
            }
        };
        if goes {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// For a name of one of `prefix`'s graph files (or its stamp, unfinished copy, or half-written
/// stamp): the store number, the commit it was built at and the graph file's own name.
fn parse_name<'n>(prefix: &str, name: &'n str) -> Option<(u64, u64, &'n str)> {
    let rest = name.strip_prefix(prefix)?;
    let (number, rest) = rest.split_at_checked(16)?;
    let rest = rest.strip_prefix('-')?;
    let (commits, rest) = rest.split_at_checked(16)?;
    let tail = rest.strip_prefix(SUFFIX)?;
    let hex = |text: &str| {
        text.bytes()
            .all(|b| b.is_ascii_hexdigit())
            .then(|| u64::from_str_radix(text, 16).ok())
            .flatten()
    };
    let number = hex(number)?;
    let commits = hex(commits)?;
    let digits = |text: &str| !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    let extra_ok = match tail {
        "" | ".tmp" | ".verified" => true,
        other => {
            other.strip_prefix(".verified.").is_some_and(digits)
                || other
                    .strip_prefix(".tmp.")
                    .and_then(|rest| rest.split_once('.'))
                    .is_some_and(|(pid, n)| digits(pid) && digits(n))
        }
    };
    extra_ok.then(|| (number, commits, &name[..name.len() - tail.len()]))
}

/// Where a build writes the file that will be at `path`: beside it, under a name of this
/// build's own (`….graph.tmp.<pid>.<n>`).
pub(crate) fn aside_path(path: &Path) -> std::path::PathBuf {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut name = path.as_os_str().to_os_string();
    name.push(format!(".tmp.{}.{n}", std::process::id()));
    std::path::PathBuf::from(name)
}

/// A test hook: with `TSGRAPH_CRASH_POINT` set to `point`, the process aborts here, as a
/// power cut would stop it between two steps of the commit order (no destructor runs, no
/// buffer is flushed).
pub(crate) fn crash_point(point: &str) {
    if std::env::var_os("TSGRAPH_CRASH_POINT").is_some_and(|wanted| wanted == point) {
        std::process::abort();
    }
}

/// Syncs the folder holding `path`, so a rename into it survives a power cut.
pub(crate) fn sync_folder(path: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        let folder = match path.parent() {
            Some(folder) if !folder.as_os_str().is_empty() => folder,
            _ => Path::new("."),
        };
        std::fs::File::open(folder)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_round_trips_and_serves_only_later_states_of_its_store() {
        let built = Generation {
            store: 0xab,
            commits: 5,
        };
        let name = GraphFileName::new(Path::new("/x/graph.redb"), built);
        assert_eq!(
            name.name,
            "graph.redb.00000000000000ab-0000000000000005.graph"
        );
        assert_eq!(
            GraphFileName::from_bytes(&name.to_bytes()),
            Some(name.clone())
        );
        assert!(name.serves(Generation {
            store: 0xab,
            commits: 6
        }));
        assert!(!name.serves(built));
        assert!(name.serves(Generation {
            store: 0xab,
            commits: 70
        }));
        assert!(!name.serves(Generation {
            store: 0xac,
            commits: 6
        }));
    }

    #[test]
    fn a_name_that_is_a_path_is_refused() {
        for bad in ["../x.graph", "a/b.graph", "", ".hidden"] {
            let mut bytes = Generation::default().to_bytes().to_vec();
            bytes.extend_from_slice(bad.as_bytes());
            assert_eq!(GraphFileName::from_bytes(&bytes), None, "{bad}");
        }
        assert_eq!(GraphFileName::from_bytes(&[1, 2, 3]), None);
    }

    #[test]
    fn the_sweep_keeps_the_named_file_and_files_a_builder_may_still_name() {
        let dir = tempfile::tempdir().expect("temp dir");
        let home = dir.path().join("graph.redb");
        let a = "000000000000000a";
        let b = "000000000000000b";
        let names = [
            format!("graph.redb.{a}-0000000000000001.graph"),
            format!("graph.redb.{a}-0000000000000001.graph.verified"),
            format!("graph.redb.{a}-0000000000000001.graph.verified.1234"),
            format!("graph.redb.{a}-0000000000000002.graph"),
            format!("graph.redb.{a}-0000000000000002.graph.verified"),
            format!("graph.redb.{a}-0000000000000003.graph.tmp"),
            format!("graph.redb.{a}-0000000000000001.graph.tmp.77.0"),
            format!("graph.redb.{b}-0000000000000001.graph"),
            format!("other.redb.{a}-0000000000000001.graph"),
            "graph.redb.bak.graph".to_owned(),
            "graph.redb.x.graph".to_owned(),
            "graph.redb".to_owned(),
            "graph.redb.verified".to_owned(),
        ];
        for name in &names {
            std::fs::write(dir.path().join(name), b"x").expect("write");
        }
        let keep = format!("graph.redb.{a}-0000000000000002.graph");
        let newer = format!("graph.redb.{a}-0000000000000009.graph");
        std::fs::write(dir.path().join(&newer), b"x").expect("write");
        let other_store = format!("graph.redb.{b}-0000000000000001.graph");
        // At a writable open: other stores' files and older ones of this store; a newer one
        // may be a builder's, not named yet.
        let at_open = Sweep::AtOpen {
            store: 0xa,
            named: Some(2),
        };
        sweep_orphans(&home, Some(&keep), at_open);
        assert!(dir.path().join(&newer).exists());
        assert!(!dir.path().join(&other_store).exists());
        // After naming: every other file of this store.
        sweep_orphans(&home, Some(&keep), Sweep::AfterNaming { store: 0xa });
        assert!(!dir.path().join(&newer).exists());
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .expect("list")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(
            left,
            [
                "graph.redb".to_owned(),
                format!("graph.redb.{a}-0000000000000002.graph"),
                format!("graph.redb.{a}-0000000000000002.graph.verified"),
                "graph.redb.bak.graph".to_owned(),
                "graph.redb.verified".to_owned(),
                "graph.redb.x.graph".to_owned(),
                format!("other.redb.{a}-0000000000000001.graph"),
            ]
        );
    }
}
