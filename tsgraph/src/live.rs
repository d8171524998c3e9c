//! A project kept fresh for a long-lived process (an editor plugin, the MCP server, `watch`):
//! queries read a read-only store, and every update takes the writer only for its commit.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use parking_lot::{Mutex, RwLock};
use tsgraph_engine::Store;
use tsgraph_indexer::{EditOutcome, IndexOptions, LiveIndex, SyncSummary, TextEdit};
use tsgraph_query::Summary;

use crate::error::Error;
use crate::project::{Project, WRITER_WAIT, create_store_dir, project_root, store_path};
use crate::request::{Format, Output, QueryRequest};

/// A project whose graph follows the files on disk and the text an editor holds.
///
/// Queries go to a read-only store, so other processes may query and write the same store
/// meanwhile; each update opens the writer (waiting up to [`WRITER_WAIT`] for another
/// process that writes), commits, and lets it go, so one process never holds the store for
/// longer than a commit. Updates made by other processes are caught up before the next
/// update; a store replaced by `index --rebuild` is reopened before the next query.
///
/// ```no_run
/// use tsgraph::{Format, LiveProject, QueryRequest, SymbolArg, TraversalOptions};
/// use tsgraph::indexer::{IndexOptions, TextEdit};
///
/// let live = LiveProject::open("app", None, IndexOptions::default())?;
/// // The editor typed a call into src/main.ts (whole-text form; ranges work too).
/// let outcome = live.set_file_text("src/main.ts", "import { helper } from './util';\nhelper();\n")?;
/// println!("{} edges added in {:?}", outcome.delta.edges_added.len(), outcome.time);
/// let request = QueryRequest::Callers {
///     symbol: SymbolArg::new("helper"),
///     options: TraversalOptions::default(),
/// };
/// live.query(&request, Format::Toon, &mut std::io::stdout())?;
/// live.apply_edit("src/main.ts", &[TextEdit::bytes(0..0, "// edited\n")])?;
/// # Ok::<(), tsgraph::Error>(())
/// ```
pub struct LiveProject {
    root: PathBuf,
    db: PathBuf,
    index: Arc<Mutex<LiveIndex>>,
    reader: RwLock<Reader>,
    /// Set while a graph file is being built, or the store compacted, beside the writer.
    building: Arc<AtomicBool>,
    /// Set when an update grew the store file (redb doubled it) until a compaction
    /// succeeds (one fails while a query holds a snapshot; the next update tries again).
    compact_due: Arc<AtomicBool>,
    /// That build's thread, joined when the project is dropped (so that it never names a
    /// file after its owner is gone).
    builder: Mutex<Option<std::thread::JoinHandle<()>>>,
}

impl Drop for LiveProject {
    fn drop(&mut self) {
        if let Some(builder) = self.builder.lock().take() {
            let _ = builder.join();
        }
        // The session's edits left the store's kept resolution behind: keep this state's, so
        // that the next process resumes from it rather than reading every summary. Only when
        // the writer is free now; failing costs the next process time, not correctness.
        let mut index = self.index.lock();
        if index.resolution_behind()
            && let Ok(writer) = Store::open(&self.db)
            && let Ok(before) = writer.file_len()
            && index.keep_resolution(&writer).unwrap_or(false)
        {
            // As after an edit that grew the file; a failed compaction leaves it as it was.
            let _ = writer.compact_if_grown(before);
        }
    }
}

/// Clears the building flag however the build ends, a panic included.
struct Building(Arc<AtomicBool>);

impl Drop for Building {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
    }
}

/// The read-only project queries use, and the identity of the store file it opened.
struct Reader {
    project: Project,
    file: Option<FileIdentity>,
}

impl LiveProject {
    /// Opens the project at `root` (store at `db`, default `root/.tsgraph/graph.redb`) and
    /// brings its store up to date with the files on disk, indexing it when it never was.
    ///
    /// The index state the updates work from is then read from the store on a background
    /// thread ([`LiveIndex::warm`]: resumed from the resolution the store keeps, else from
    /// every summary); an update that comes first waits for it. Queries never wait. Dropped,
    /// the project keeps its resolution in the store when its edits left it behind
    /// ([`LiveIndex::keep_resolution`]).
    pub fn open(
        root: impl AsRef<Path>,
        db: Option<&Path>,
        options: IndexOptions,
    ) -> Result<LiveProject, Error> {
        let root = project_root(root.as_ref())?;
        let db = store_path(&root, db)?;
        create_store_dir(&db)?;
        let mut index = LiveIndex::new(&root, options);
        {
            let writer = Store::open_waiting(&db, WRITER_WAIT)?;
            index.sync(&writer)?;
        }
        let reader = open_reader(&root, &db)?;
        let index = Arc::new(Mutex::new(index));
        warm_in_background(&index, &db);
        Ok(LiveProject {
            root,
            db,
            index,
            reader: RwLock::new(reader),
            building: Arc::new(AtomicBool::new(false)),
            compact_due: Arc::new(AtomicBool::new(false)),
            builder: Mutex::new(None),
        })
    }

    /// The project root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The store file.
    pub fn store_path(&self) -> &Path {
        &self.db
    }

    /// Brings the store up to date with the files on disk (files an editor holds keep the
    /// editor's text): only changed files are read again.
    pub fn sync(&self) -> Result<SyncSummary, Error> {
        self.write(|index, store| Ok(index.sync(store)?))
    }

    /// Applies an editor's edits to the file at `path` (relative to the project root, forward
    /// slashes) and commits the new graph; see [`LiveIndex::edit`].
    pub fn apply_edit(&self, path: &str, edits: &[TextEdit]) -> Result<EditOutcome, Error> {
        self.write(|index, store| Ok(index.edit(store, path, edits)?))
    }

    /// Sets the whole text of the file at `path` as an editor holds it (opened or reloaded)
    /// and commits the new graph.
    pub fn set_file_text(&self, path: &str, text: &str) -> Result<EditOutcome, Error> {
        self.write(|index, store| Ok(index.set_text(store, path, text)?))
    }

    /// The editor closed the file at `path`: its text on disk counts again.
    pub fn close_file(&self, path: &str) -> Result<EditOutcome, Error> {
        self.write(|index, store| Ok(index.release(store, path)?))
    }

    /// Source files at `paths` changed on disk: reads them again and commits the new graph
    /// in one transaction; see [`LiveIndex::refresh`].
    pub fn refresh_files(&self, paths: &[String]) -> Result<EditOutcome, Error> {
        self.write(|index, store| Ok(index.refresh(store, paths)?))
    }

    /// Answers `request` from the latest committed graph, in `format`.
    pub fn query(
        &self,
        request: &QueryRequest,
        format: Format,
        out: &mut dyn Write,
    ) -> Result<Summary, Error> {
        self.with_project(|project| project.query(request, format, out))
    }

    /// Like [`LiveProject::query`], written as `output` says (see [`Project::query_with`]).
    pub fn query_with(
        &self,
        request: &QueryRequest,
        output: &Output,
        out: &mut dyn Write,
    ) -> Result<Summary, Error> {
        self.with_project(|project| project.query_with(request, output, out))
    }

    /// Runs `f` with a read-only [`Project`] on the latest committed graph (reopened first if
    /// `index --rebuild` replaced the store file).
    pub fn with_project<T>(
        &self,
        f: impl FnOnce(&Project) -> Result<T, Error>,
    ) -> Result<T, Error> {
        let replaced = self.reader.read().file != file_identity(&self.db);
        if replaced {
            let mut reader = self.reader.write();
            if reader.file != file_identity(&self.db) {
                *reader = open_reader(&self.root, &self.db)?;
            }
        }
        f(&self.reader.read().project)
    }

    /// Whether a new graph file is being built beside the writer (after the edits since the
    /// last one passed `IndexOptions::graph_file_bound`), or the store file compacted (after
    /// an edit grew it); queries meanwhile read the current file through its overlay.
    pub fn building_graph_file(&self) -> bool {
        self.building.load(Ordering::Acquire)
    }

    /// One update: the writer is opened for it and let go after it, whatever the outcome.
    /// When the overlay has passed its bound, a new graph file is built on a thread of its
    /// own, off the edit path; when the update grew the store file, the file is compacted
    /// there too.
    fn write<T>(
        &self,
        f: impl FnOnce(&mut LiveIndex, &Store) -> Result<T, Error>,
    ) -> Result<T, Error> {
        let mut index = self.index.lock();
        let writer = Store::open_waiting(&self.db, WRITER_WAIT)?;
        let before = writer.file_len().unwrap_or(u64::MAX);
        let result = f(&mut index, &writer)?;
        // A check that fails costs the edit nothing: the next one checks again.
        if writer.file_len().is_ok_and(|after| after > before) {
            self.compact_due.store(true, Ordering::Release);
        }
        let build = writer
            .graph_file_due(index.options().graph_file_bound)
            .unwrap_or(false);
        if build || self.compact_due.load(Ordering::Acquire) {
            self.maintain_beside(build);
        }
        Ok(result)
    }

    /// On another thread: builds the next graph file from a read-only handle (when `build`),
    /// then names it under the writer — edits committed meanwhile stay in the overlay of the
    /// new file —; then compacts the store file when an update grew it.
    fn maintain_beside(&self, build: bool) {
        if self.building.swap(true, Ordering::AcqRel) {
            return;
        }
        let (index, db) = (Arc::clone(&self.index), self.db.clone());
        let compact_due = Arc::clone(&self.compact_due);
        let building = Building(Arc::clone(&self.building));
        let flag = Arc::clone(&self.building);
        let spawned = std::thread::Builder::new()
            .name("tsgraph-graph-file".into())
            .spawn(move || {
                let mut building = Some(building);
                let mut build = build;
                loop {
                    // Failures are not reported: queries keep reading the current file and
                    // its overlay, and the next edit that finds either due tries again.
                    if build && build_and_name(&index, &db).unwrap_or(false) {
                        compact_due.store(true, Ordering::Release);
                    }
                    let blocked = !compact_while_due(&compact_due, &db);
                    // An update that grew the file while this thread was finishing found it
                    // busy and left the compaction due: take it up, unless another thread has
                    // (a try a snapshot blocked waits for the next update instead).
                    drop(building.take());
                    if blocked
                        || !compact_due.load(Ordering::Acquire)
                        || flag.swap(true, Ordering::AcqRel)
                    {
                        break;
                    }
                    building = Some(Building(Arc::clone(&flag)));
                    build = false;
                }
            });
        // No thread to be had: the closure, and with it the flag's guard, is dropped. Else the
        // previous build, if any, has ended (its flag was clear) and its handle goes.
        if let Ok(handle) = spawned {
            *self.builder.lock() = Some(handle);
        }
    }
}

/// Builds a graph file from a read-only handle, then names it under the writer, and keeps
/// the resolution the edits since the last one left behind (off the edit path already).
/// Returns whether the store file grew (a compaction is then due).
fn build_and_name(index: &Mutex<LiveIndex>, db: &Path) -> Result<bool, Error> {
    let built = Store::open_read_only(db)?.build_graph_file_aside()?;
    let mut index = index.lock();
    let writer = Store::open_waiting(db, WRITER_WAIT)?;
    let before = writer.file_len()?;
    index.name_graph_file(&writer, built)?;
    index.keep_resolution(&writer)?;
    Ok(writer.file_len()? > before)
}

/// Compacts the store file while a compaction is due: the flag is cleared before each try,
/// so that an update growing the file meanwhile sets it again. A try that moves nothing (a
/// snapshot held pages) leaves it due for the next update and returns `false`.
fn compact_while_due(compact_due: &AtomicBool, db: &Path) -> bool {
    for _ in 0..3 {
        if !compact_due.swap(false, Ordering::AcqRel) {
            return true;
        }
        if !compact(db).unwrap_or(false) {
            compact_due.store(true, Ordering::Release);
            return false;
        }
    }
    true
}

/// Compacts the store file under the writer; `false` when a snapshot still held pages.
fn compact(db: &Path) -> Result<bool, Error> {
    let writer = Store::open_waiting(db, WRITER_WAIT)?;
    Ok(writer.compact()?)
}

/// Reads the index state on a thread of its own (holding the index, so an update waits for
/// it). A failure is not reported: the first update reads the state itself, and says why.
///
/// Returns once the thread holds the index: an update that came first would find no state,
/// and sync the project again before reading one (a walk of every file, half of the first
/// edit on the 1M-line synthetic).
fn warm_in_background(index: &Arc<Mutex<LiveIndex>>, db: &Path) {
    let index = Arc::clone(index);
    let db = db.to_path_buf();
    let (holding, held) = std::sync::mpsc::sync_channel::<()>(1);
    let spawned = std::thread::Builder::new()
        .name("tsgraph-warm".into())
        .spawn(move || {
            let mut index = index.lock();
            let _ = holding.send(());
            if let Ok(store) = Store::open_read_only(&db) {
                let _ = index.warm(&store);
            }
        });
    // No thread to be had: the first update reads the state instead. A thread that ended
    // without saying so dropped its sender, which ends the wait too.
    if spawned.is_ok() {
        let _ = held.recv();
    }
}

fn open_reader(root: &Path, db: &Path) -> Result<Reader, Error> {
    let file = file_identity(db);
    let project = Project::open_read_only(root, Some(db))?;
    Ok(Reader { project, file })
}

/// Which file a path names: a replaced store (a rebuild renames a new file over it) is another
/// file at the same path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FileIdentity {
    device: u64,
    inode: u64,
}

#[cfg(unix)]
fn file_identity(path: &Path) -> Option<FileIdentity> {
    use std::os::unix::fs::MetadataExt;
    let metadata = std::fs::metadata(path).ok()?;
    Some(FileIdentity {
        device: metadata.dev(),
        inode: metadata.ino(),
    })
}

/// Elsewhere an open file cannot be renamed over, so the store is never replaced under a
/// reader.
#[cfg(not(unix))]
fn file_identity(_path: &Path) -> Option<FileIdentity> {
    None
}
