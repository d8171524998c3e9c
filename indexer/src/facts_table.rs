//! Every file's summary, by file id, each read from the store when first asked for.
//!
//! A full index holds every summary from the start. A state resumed in a new process
//! ([`crate::resume`]) holds none: an update reads the summaries of the files it links and of
//! what their names resolve into, a few dozen of a project's thousands, where decoding every
//! one was most of a one-file update.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::facts::FileFacts;
use crate::import_uses::{ImportUses, import_uses_of};
use crate::reach_key::ReachKey;
use crate::resolve::FileId;
use crate::summary::IndexError;

/// Where the summaries a table has not read yet come from.
pub(crate) trait SummarySource: Send + Sync {
    /// The summary of the file at `path` whose content hash is `hash`, and whether it is the
    /// stored one (a summary that cannot be read is made again from the file on disk). An
    /// error is the store's.
    fn load(&self, path: &str, hash: u64) -> Result<(FileFacts, bool), IndexError>;

    /// What the file at `path` (content hash `hash`) does with its imports, as stored in
    /// front of its summary; `None` when that cannot be read (the whole summary is read then).
    fn load_uses(&self, path: &str, hash: u64) -> Option<ImportUses>;
}

/// The summaries of a project's files, by file id; a removed file keeps its id with an empty
/// path.
pub(crate) struct FactsTable {
    cells: Vec<OnceLock<FileFacts>>,
    /// What each file does with its imports: from its summary once read, before that from
    /// the source.
    uses: Vec<OnceLock<ImportUses>>,
    /// Each file's reach key: kept with the resolution, else computed from its uses.
    keys: Vec<OnceLock<ReachKey>>,
    /// Each file's path and content hash, known without its summary.
    paths: Vec<String>,
    hashes: Vec<u64>,
    /// `None` once every cell is filled (a table made from summaries).
    source: Option<Box<dyn SummarySource>>,
    /// The first read that failed: the summary stood in for by an empty one, so whatever was
    /// linked with it is not to be written ([`FactsTable::take_failure`]).
    failure: parking_lot::Mutex<Option<IndexError>>,
    /// Summaries read from the source so far.
    reads: AtomicUsize,
    /// Import uses read from the source so far (apart from their summaries).
    uses_reads: AtomicUsize,
}

impl FactsTable {
    /// A table holding these summaries, in file id order.
    pub(crate) fn loaded(files: Vec<FileFacts>) -> FactsTable {
        let stamps = files.iter().map(|f| (f.path.clone(), f.hash)).collect();
        let cells = files.into_iter().map(OnceLock::from).collect();
        FactsTable::with_cells(stamps, cells, Vec::new())
    }

    /// A table of the files `(path, hash)` in file id order, their summaries read from the
    /// source attached when first asked for; `keys` are their reach keys, in the same order
    /// (computed when first asked for where there are fewer).
    pub(crate) fn unread(files: Vec<(String, u64)>, keys: Vec<ReachKey>) -> FactsTable {
        let cells = files.iter().map(|_| OnceLock::new()).collect();
        FactsTable::with_cells(files, cells, keys)
    }

    fn with_cells(
        files: Vec<(String, u64)>,
        cells: Vec<OnceLock<FileFacts>>,
        keys: Vec<ReachKey>,
    ) -> FactsTable {
        let mut keys: Vec<OnceLock<ReachKey>> = keys.into_iter().map(OnceLock::from).collect();
        keys.resize_with(cells.len(), OnceLock::new);
        FactsTable {
            uses: cells.iter().map(|_| OnceLock::new()).collect(),
            keys,
            cells,
            hashes: files.iter().map(|(_, hash)| *hash).collect(),
            paths: files.into_iter().map(|(path, _)| path).collect(),
            source: None,
            failure: parking_lot::Mutex::new(None),
            reads: AtomicUsize::new(0),
            uses_reads: AtomicUsize::new(0),
        }
    }

    /// How many file ids there are (removed files included).
    pub(crate) fn len(&self) -> usize {
        self.cells.len()
    }

    /// The path of file `id` ("" for a removed file).
    pub(crate) fn path(&self, id: FileId) -> &str {
        &self.paths[id as usize]
    }

    /// The content hash of file `id`.
    pub(crate) fn hash(&self, id: FileId) -> u64 {
        self.hashes[id as usize]
    }

    /// Every file's path and hash, in file id order, without reading a summary.
    pub(crate) fn stamps(&self) -> impl Iterator<Item = (&str, u64)> + '_ {
        self.paths
            .iter()
            .map(String::as_str)
            .zip(self.hashes.iter().copied())
    }

    /// The summary of file `id`, read now if it was not. One that cannot be read stands in
    /// as an empty one and is a failure ([`FactsTable::take_failure`]).
    pub(crate) fn get(&self, id: FileId) -> &FileFacts {
        let index = id as usize;
        self.cells[index].get_or_init(|| {
            let path = &self.paths[index];
            if path.is_empty() {
                // Removed.
                return FileFacts::default();
            }
            // Never without a source for a table made from summaries: every cell is filled.
            let Some(source) = &self.source else {
                self.fail(IndexError::Worker(format!(
                    "{path}: its summary was asked for with no store to read it from"
                )));
                return FileFacts::default();
            };
            self.reads.fetch_add(1, Ordering::Relaxed);
            match source.load(path, self.hashes[index]) {
                Ok((facts, true)) => facts,
                // Made again from disk: what the state knows of the file besides its summary
                // (resolved imports, export table) came from the stored one, so the operation
                // is redone from every summary.
                Ok((facts, false)) => {
                    self.fail(IndexError::Worker(format!(
                        "{path}: its stored summary could not be read"
                    )));
                    facts
                }
                Err(err) => {
                    self.fail(err);
                    FileFacts::default()
                }
            }
        })
    }

    /// Records a failure: the first since the last [`FactsTable::take_failure`] is kept.
    fn fail(&self, err: IndexError) {
        self.failure.lock().get_or_insert(err);
    }

    /// How many summaries were read from the source.
    pub(crate) fn reads(&self) -> usize {
        self.reads.load(Ordering::Relaxed)
    }

    /// How many files' import uses were read from the source apart from their summaries.
    pub(crate) fn uses_reads(&self) -> usize {
        self.uses_reads.load(Ordering::Relaxed)
    }

    /// What file `id` does with its imports: computed from its summary when that is read,
    /// else read from the source (the small part stored in front of the summary).
    pub(crate) fn import_uses(&self, id: FileId) -> &ImportUses {
        let index = id as usize;
        self.uses[index].get_or_init(|| {
            let stored = match (&self.source, self.cells[index].get()) {
                (Some(source), None) if !self.paths[index].is_empty() => {
                    let read = source.load_uses(&self.paths[index], self.hashes[index]);
                    self.uses_reads
                        .fetch_add(read.is_some().into(), Ordering::Relaxed);
                    read
                }
                _ => None,
            };
            stored.unwrap_or_else(|| import_uses_of(self.get(id)))
        })
    }

    /// File `id`'s reach key ([`crate::reach_key`]): as kept, else from its uses, computed
    /// from its summary when that is at hand (without keeping the uses: a whole index would
    /// keep every file's), else read.
    pub(crate) fn reach_key(&self, id: FileId) -> &ReachKey {
        let index = id as usize;
        self.keys[index].get_or_init(|| match (self.uses[index].get(), self.cells[index].get()) {
            (Some(uses), _) => ReachKey::of(uses),
            (None, Some(facts)) => ReachKey::of(&import_uses_of(facts)),
            (None, None) => ReachKey::of(self.import_uses(id)),
        })
    }

    /// Computes the reach key of every file that has none yet, on two threads: for a state
    /// about to keep every key (a whole index computes each from its summary).
    pub(crate) fn fill_reach_keys(&self) {
        let missing: Vec<FileId> = (0..self.keys.len())
            .filter(|&index| self.keys[index].get().is_none())
            .map(|index| FileId::try_from(index).unwrap_or(FileId::MAX))
            .collect();
        if missing.len() < 64 {
            return;
        }
        // A panic in a worker would have panicked in `reach_key` alike: it is carried on.
        crate::chunks::map_on_two_threads(
            &missing,
            64,
            || (),
            |_, &id| {
                self.reach_key(id);
            },
        )
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
    }

    /// Reads what the files of `ids` do with their imports, on two threads: for a caller
    /// about to visit all of them (an update's importers of a changed file).
    pub(crate) fn read_uses_ahead(&self, ids: &[FileId]) {
        if self.source.is_none() {
            return;
        }
        let unread: Vec<FileId> = (ids.iter().copied())
            .filter(|&id| self.uses[id as usize].get().is_none())
            .collect();
        if unread.len() < 16 {
            return;
        }
        // A panic in a reader would have panicked in `import_uses` alike: it is carried on.
        crate::chunks::map_on_two_threads(
            &unread,
            8,
            || (),
            |_, &id| {
                self.import_uses(id);
            },
        )
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
    }

    /// Whether some summary is not read yet (a resumed state's).
    pub(crate) fn has_unread(&self) -> bool {
        (self.cells.iter().zip(&self.paths))
            .any(|(cell, path)| cell.get().is_none() && !path.is_empty())
    }

    /// Reads the summaries not read yet from `source` from now on.
    pub(crate) fn attach_source(&mut self, source: Box<dyn SummarySource>) {
        self.source = Some(source);
    }

    /// Lets go of the source (it holds a snapshot of the store, which keeps the store's old
    /// pages from being reused while it is open). A summary not read by then is read from
    /// the next source attached; asking for it meanwhile is a failure
    /// ([`FactsTable::take_failure`]).
    pub(crate) fn release_source(&mut self) {
        self.source = None;
    }

    /// The error of the first summary that could not be read since the last call: what was
    /// computed meanwhile used an empty summary in its place.
    pub(crate) fn take_failure(&self) -> Option<IndexError> {
        self.failure.lock().take()
    }

    /// Every summary in file id order, reading those not read yet.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &FileFacts> + Clone + '_ {
        (0..self.len()).map(|id| self.get(FileId::try_from(id).unwrap_or(FileId::MAX)))
    }

    /// Replaces file `id`'s summary.
    pub(crate) fn set(&mut self, id: FileId, facts: FileFacts) {
        let index = id as usize;
        self.paths[index] = facts.path.clone();
        self.hashes[index] = facts.hash;
        self.uses[index] = OnceLock::new();
        self.keys[index] = OnceLock::new();
        self.cells[index] = OnceLock::from(facts);
    }

    /// Adds a new file's summary under the next id.
    pub(crate) fn push(&mut self, facts: FileFacts) {
        self.paths.push(facts.path.clone());
        self.hashes.push(facts.hash);
        self.uses.push(OnceLock::new());
        self.keys.push(OnceLock::new());
        self.cells.push(OnceLock::from(facts));
    }
}

impl std::fmt::Debug for FactsTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let read = self.cells.iter().filter(|c| c.get().is_some()).count();
        write!(f, "FactsTable({} files, {read} read)", self.len())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Arc, Mutex};

    use super::{FactsTable, SummarySource};
    use crate::facts::FileFacts;
    use crate::summary::IndexError;

    /// Hands out summaries and counts the reads; "b.ts" is made again (its stored summary
    /// cannot be read) and "gone.ts" fails.
    struct Counting {
        reads: Arc<AtomicUsize>,
        asked: Arc<Mutex<Vec<(String, u64)>>>,
    }

    impl SummarySource for Counting {
        fn load(&self, path: &str, hash: u64) -> Result<(FileFacts, bool), IndexError> {
            if path == "gone.ts" {
                return Err(IndexError::Worker("the store is gone".into()));
            }
            self.reads.fetch_add(1, Ordering::Relaxed);
            self.asked.lock().unwrap().push((path.to_owned(), hash));
            let facts = FileFacts {
                path: path.to_owned(),
                hash,
                lines: 7,
                ..FileFacts::default()
            };
            Ok((facts, path != "b.ts"))
        }

        fn load_uses(&self, path: &str, hash: u64) -> Option<crate::import_uses::ImportUses> {
            // Only a.ts has its uses stored apart.
            (path == "a.ts").then(|| crate::import_uses::ImportUses {
                hash,
                imports: vec![Default::default()],
            })
        }
    }

    #[test]
    fn summaries_are_read_once_when_first_asked_for_and_removed_files_never() {
        let reads = Arc::new(AtomicUsize::new(0));
        let asked = Arc::new(Mutex::new(Vec::new()));
        let source = Counting {
            reads: reads.clone(),
            asked: asked.clone(),
        };
        let files = vec![
            ("a.ts".to_owned(), 1),
            (String::new(), 0),
            ("b.ts".to_owned(), 3),
            ("gone.ts".to_owned(), 5),
        ];
        let unattached = FactsTable::unread(files.clone(), Vec::new());
        assert!(unattached.has_unread());
        assert_eq!(unattached.get(0).path, "", "nothing to read from yet");
        let failure = unattached.take_failure().expect("a failure");
        assert!(
            failure
                .to_string()
                .contains("a.ts: its summary was asked for"),
            "{failure}"
        );
        let mut table = FactsTable::unread(files, Vec::new());
        table.attach_source(Box::new(source));
        assert_eq!(table.path(2), "b.ts");
        assert_eq!(table.hash(0), 1);
        assert_eq!(
            reads.load(Ordering::Relaxed),
            0,
            "paths and hashes read nothing"
        );
        assert_eq!(table.get(0).lines, 7);
        assert_eq!(table.get(0).lines, 7);
        assert_eq!(reads.load(Ordering::Relaxed), 1, "read once");
        assert_eq!(table.get(1).path, "", "a removed file is empty");
        assert_eq!(reads.load(Ordering::Relaxed), 1, "and never read");
        assert!(table.take_failure().is_none(), "a.ts was read");
        assert_eq!(table.get(2).hash, 3);
        let failure = table
            .take_failure()
            .expect("a summary made again is a failure");
        assert!(
            failure
                .to_string()
                .contains("b.ts: its stored summary could not be read")
        );
        assert_eq!(
            table.get(3).path,
            "",
            "a failed read stands in an empty summary"
        );
        let failure = table.take_failure().expect("and says so");
        assert_eq!(
            failure.to_string(),
            "a parser thread failed: the store is gone"
        );
        assert!(table.take_failure().is_none(), "once");
        assert_eq!(
            *asked.lock().unwrap(),
            vec![("a.ts".to_owned(), 1), ("b.ts".to_owned(), 3)]
        );
        table.set(
            2,
            FileFacts {
                path: "b.ts".into(),
                hash: 9,
                ..FileFacts::default()
            },
        );
        assert!(table.take_failure().is_none(), "a new summary is known");
        assert_eq!(table.hash(2), 9);
        table.push(FileFacts {
            path: "c.ts".into(),
            hash: 4,
            ..FileFacts::default()
        });
        let stamps: Vec<(&str, u64)> = table.stamps().collect();
        assert_eq!(
            stamps,
            vec![
                ("a.ts", 1),
                ("", 0),
                ("b.ts", 9),
                ("gone.ts", 5),
                ("c.ts", 4)
            ]
        );
        assert_eq!(table.iter().count(), 5);
        assert_eq!(reads.load(Ordering::Relaxed), 2);
        assert_eq!(table.reads(), 3, "the failed read counts too");
        assert!(!table.has_unread());
    }

    #[test]
    fn import_uses_are_read_apart_from_summaries_when_stored_so() {
        let reads = Arc::new(AtomicUsize::new(0));
        let source = Counting {
            reads: reads.clone(),
            asked: Arc::new(Mutex::new(Vec::new())),
        };
        let files = vec![("a.ts".to_owned(), 1), ("b.ts".to_owned(), 3)];
        let mut table = FactsTable::unread(files, Vec::new());
        table.attach_source(Box::new(source));
        table.read_uses_ahead(&[0, 1]);
        assert_eq!(table.import_uses(0).imports.len(), 1, "the stored part");
        assert_eq!(reads.load(Ordering::Relaxed), 0, "no summary read for it");
        assert_eq!(table.import_uses(1).hash, 3, "made from the summary");
        assert_eq!(reads.load(Ordering::Relaxed), 1);
        table.set(
            0,
            FileFacts {
                path: "a.ts".into(),
                hash: 2,
                ..FileFacts::default()
            },
        );
        assert_eq!(table.import_uses(0).hash, 2, "a new summary's own");
        assert!(table.import_uses(0).imports.is_empty());
    }

    #[test]
    fn a_loaded_table_reads_nothing() {
        let table = FactsTable::loaded(vec![FileFacts {
            path: "a.ts".into(),
            hash: 5,
            ..FileFacts::default()
        }]);
        assert_eq!(table.get(0).hash, 5);
        assert_eq!(table.path(0), "a.ts");
        assert!(table.take_failure().is_none());
    }
}
