//! The redb-backed graph store: opening (with an integrity check), schema checks, snapshots and
//! batch writes, all behind the panic boundary of `guard.rs`.

mod adjacency;
mod aside;
mod compact;
mod crowded;
mod guard;
mod interner;
mod load;
mod lock;
mod mapped;
pub use mapped::Prefetch;
#[doc(hidden)]
pub use mapped::reseal_graph_file;
mod overlay;
pub use overlay::OVERLAY_BOUND;
mod search;
mod snapshot;
mod space;
mod steps;
mod tables;
mod unresolved;
mod verified;
mod words;
mod write;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use redb::{ConcurrencyMode, Database, ReadOnlyDatabase, ReadableDatabase};

use crate::delta::GraphDelta;
use crate::error::{DbResultExt, StoreError};
use crate::record::GraphBatch;
pub use adjacency::{EdgeRef, EdgeView};
use guard::{Boundary, Quiet};
pub use load::{LoadedFile, Loader};
use lock::WriterLock;
pub(crate) use lock::lock_holder;
pub use search::{TermSet, TermsKeys};
pub use snapshot::{AdjacencyGuard, FileStamp, NodeGuard, Snapshot};
pub use space::TableSpace;
pub use steps::{Step, Steps};
use tables::{META, META_SCHEMA};
pub use words::{word_count, word_term, words};

/// The layout version of the store. Bump it whenever a table or record layout changes; a
/// store of another version is refused with [`StoreError::SchemaMismatch`].
pub const SCHEMA_VERSION: u32 = 15;

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

/// Which state of which store a reader saw: a number drawn when the store file was created
/// (a rebuilt store has another) and the count of its commits. Equal generations mean nothing
/// was written in between; see [`Snapshot::generation`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Generation {
    /// Drawn when the store file was created.
    pub store: u64,
    /// Commits since.
    pub commits: u64,
}

impl Generation {
    pub(crate) fn to_bytes(self) -> [u8; 16] {
        let mut bytes = [0; 16];
        bytes[..8].copy_from_slice(&self.store.to_le_bytes());
        bytes[8..].copy_from_slice(&self.commits.to_le_bytes());
        bytes
    }

    pub(crate) fn from_bytes(bytes: &[u8]) -> Option<Generation> {
        let bytes: &[u8; 16] = bytes.try_into().ok()?;
        let (store, commits) = bytes.split_at(8);
        Some(Generation {
            store: u64::from_le_bytes(store.try_into().ok()?),
            commits: u64::from_le_bytes(commits.try_into().ok()?),
        })
    }
}

/// A graph store in one redb file, shared by processes: one writer at a time (it holds the
/// store's writer lock, `graph.redb.lock`) and any number of read-only handles, which follow
/// the writer's commits and never write.
///
/// Readers take [`Snapshot`]s and are never blocked by the writer; each write is one redb
/// transaction, so a failed or interrupted write leaves the previous graph intact. A store is
/// verified whole (every page against its checksum) before it is read when it may have been
/// changed behind tsgraph's back: when its size or modification time differ from what the
/// last writer recorded (`graph.redb.verified`). A panic inside redb is reported as
/// [`StoreError::Corrupted`].
pub struct Store {
    /// Dropped by hand, inside the panic boundary: closing may read and write the file.
    /// Locked for reading while a transaction begins (transactions do not borrow the
    /// handle), for writing only by a compaction, which needs the handle alone.
    db: parking_lot::RwLock<Option<Quiet<Handle>>>,
    /// Held while a writer has the store open.
    lock: Option<WriterLock>,
    boundary: Boundary,
    /// Where the store lives once in place: its own path, or for a replacement being built
    /// aside, the path it will replace. Graph files are named after it.
    home: PathBuf,
    /// The graph file last mapped and the overlay of the last state read, kept while they
    /// serve it.
    served: parking_lot::Mutex<Option<Served>>,
}

/// A graph file built and put in place but not yet named ([`Store::build_graph_file_aside`]).
/// Dropped without being named (an error on the way, a naming that found it could no longer
/// serve), it deletes its file.
#[derive(Debug)]
pub struct BuiltGraphFile {
    named: mapped::GraphFileName,
    /// The file the store named when the build read it.
    named_before: Option<mapped::GraphFileName>,
    path: PathBuf,
    /// Named (by this builder or another of the same state): the file stays.
    kept: bool,
}

impl Drop for BuiltGraphFile {
    fn drop(&mut self) {
        if !self.kept {
            let _ = std::fs::remove_file(&self.path);
            let _ = std::fs::remove_file(verified::stamp_path(&self.path));
        }
    }
}

/// What serves the snapshots of one store state from a graph file.
#[derive(Clone)]
struct Served {
    graph: Arc<mapped::MappedGraph>,
    overlay: Arc<overlay::Overlay>,
    generation: Generation,
}

/// A writable or a read-only redb handle.
enum Handle {
    Writer(Database),
    Reader(ReadOnlyDatabase),
}

/// How long [`Store::open_waiting`] polls between attempts.
const LOCK_POLL: Duration = Duration::from_millis(50);

/// redb's page cache (read cache and write buffer together) for a handle that writes.
/// redb's default, 1 GiB, is held in full by a large index: the write of a 1M-line project
/// then cost 1 GiB of resident memory. 16 MiB instead of 64 MiB took 47 MiB off the peak of a
/// 1M-line index without slowing it; 8 MiB, once a bulk load wrote its lookup tables in key
/// order, another 5 MiB (paired runs: 0.99× the time).
const WRITER_CACHE_BYTES: usize = 8 * 1024 * 1024;

/// The page cache of a read-only handle, which answers queries. It fills only with the pages
/// read; beyond it a page costs a `pread` from the OS page cache (a fifth of the query time
/// on the 1M-line synthetic monorepo with 16 MiB). redb empties a read-only handle's cache
/// when it sees a new commit, so in a live server it helps between edits, not across them.
const READER_CACHE_BYTES: usize = 256 * 1024 * 1024;

fn builder(check_integrity: bool, cache_bytes: usize) -> redb::Builder {
    let mut builder = Database::builder();
    builder.set_cache_size(cache_bytes);
    builder.set_concurrency_mode(ConcurrencyMode::SingleWriter);
    builder.set_check_integrity_on_open(check_integrity);
    builder
}

/// Runs `take` (something that takes the writer's lock) again every [`LOCK_POLL`] while the
/// lock is held elsewhere, until `timeout` has passed.
fn waiting_for_the_writer(
    timeout: Duration,
    mut take: impl FnMut() -> Result<Store, StoreError>,
) -> Result<Store, StoreError> {
    let started = Instant::now();
    loop {
        match take() {
            Err(StoreError::Locked { .. }) if started.elapsed() < timeout => {
                std::thread::sleep(LOCK_POLL);
            }
            other => return other,
        }
    }
}

impl Store {
    /// Opens the store at `path` for writing, creating the file (and its tables) when it does
    /// not exist. Fails with [`StoreError::Locked`] when another process is writing it.
    pub fn open_or_create(path: impl AsRef<Path>) -> Result<Store, StoreError> {
        let path = path.as_ref();
        // An empty file is a store whose creation was interrupted before redb wrote anything.
        match std::fs::metadata(path) {
            Ok(metadata) if metadata.len() > 0 => return Store::open(path),
            Ok(_) => {}
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
            Err(err) => return Err(StoreError::from_io(path, "open", err)),
        }
        let lock = WriterLock::acquire(path)?;
        let boundary = Boundary::new(path);
        let db = boundary.run("create", || {
            builder(false, WRITER_CACHE_BYTES)
                .create(path)
                .ctx("create")
        })?;
        let store = Store::with_handle(Handle::Writer(db), Some(lock), boundary, path);
        store.initialise()?;
        verified::stamp(path);
        Ok(store)
    }

    /// Like [`Store::open_or_create`], but waits up to `timeout` for another writer to
    /// finish before saying who holds the store.
    pub fn open_waiting(path: impl AsRef<Path>, timeout: Duration) -> Result<Store, StoreError> {
        let path = path.as_ref();
        waiting_for_the_writer(timeout, || Store::open_or_create(path))
    }

    /// Like [`Store::create_replacement`], but waits up to `timeout` for another writer (a
    /// query indexing a project it found unindexed, say) to finish first.
    pub fn create_replacement_waiting(
        path: impl AsRef<Path>,
        timeout: Duration,
    ) -> Result<Store, StoreError> {
        let path = path.as_ref();
        waiting_for_the_writer(timeout, || Store::create_replacement(path))
    }

    /// Opens an existing store for writing: verifies it when it may have changed behind
    /// tsgraph's back (see the type's documentation), then checks its schema version.
    ///
    /// The check is redb's, run as part of the open: every page reachable from the latest
    /// commit is read once and checked against the checksum its parent holds before anything
    /// in it is trusted. A store whose latest commit fails the check is
    /// [`StoreError::Corrupted`]: every commit is a two-phase one ([`begin_write`]), so redb
    /// does not fall back to the commit before. A store whose last writer was killed passes:
    /// its latest commit is the last one that completed.
    pub fn open(path: impl AsRef<Path>) -> Result<Store, StoreError> {
        let path = path.as_ref();
        let lock = WriterLock::acquire(path)?;
        let boundary = Boundary::new(path);
        let check = !verified::is_current(path);
        let db = boundary.run("open", || {
            builder(check, WRITER_CACHE_BYTES).open(path).ctx("open")
        })?;
        let store = Store::with_handle(Handle::Writer(db), Some(lock), boundary, path);
        store.check_schema()?;
        if check {
            verified::stamp(path);
        }
        store.sweep_graph_files()?;
        Ok(store)
    }

    /// Opens an existing store read-only: it is never written, so a user who may read but not
    /// write the store can query it, and any number of processes can, while one writes.
    ///
    /// A store that may have changed behind tsgraph's back is verified first: by a verifying
    /// writable open when no one is writing it; when a tsgraph writer is at work, the change is
    /// its own commit, and the stamp it writes after each is waited for briefly; when the
    /// store cannot be opened for writing at all (no permission), every record is read and
    /// validated instead.
    pub fn open_read_only(path: impl AsRef<Path>) -> Result<Store, StoreError> {
        let path = path.as_ref();
        if !path.exists() {
            return Err(StoreError::from_io(
                path,
                "open",
                std::io::Error::new(std::io::ErrorKind::NotFound, "no store"),
            ));
        }
        let mut deep_check = false;
        if !verified::is_current(path) {
            match Store::open(path) {
                Ok(writer) => drop(writer),
                Err(StoreError::Locked { .. }) => {
                    let until = Instant::now() + Duration::from_secs(2);
                    while !verified::is_current(path) && Instant::now() < until {
                        std::thread::sleep(Duration::from_millis(10));
                    }
                }
                Err(StoreError::PermissionDenied { .. }) => deep_check = true,
                Err(other) => return Err(other),
            }
        }
        let boundary = Boundary::new(path);
        let open = || {
            boundary.run("open", || {
                Ok(builder(false, READER_CACHE_BYTES).open_read_only(path))
            })
        };
        let db = match open()? {
            // A writer was killed after its last stamp (while it wrote the graph file, or
            // closed the store): the store needs redb's repair, which a writable open does.
            Err(redb::DatabaseError::RepairAborted) => {
                match Store::open(path) {
                    Ok(writer) => drop(writer),
                    Err(StoreError::Locked { .. }) => {}
                    Err(other) => return Err(other),
                }
                open()?.ctx("open read-only")?
            }
            other => other.ctx("open read-only")?,
        };
        let store = Store::with_handle(Handle::Reader(db), None, boundary, path);
        store.check_schema()?;
        if deep_check {
            store.snapshot()?.validate_everything()?;
        }
        Ok(store)
    }

    fn with_handle(
        handle: Handle,
        lock: Option<WriterLock>,
        boundary: Boundary,
        home: &Path,
    ) -> Store {
        Store {
            db: parking_lot::RwLock::new(Some(Quiet::new(handle))),
            lock,
            boundary,
            home: home.to_path_buf(),
            served: parking_lot::Mutex::new(None),
        }
    }

    /// Whether this handle only reads.
    pub fn is_read_only(&self) -> bool {
        self.lock.is_none()
    }

    /// A new, empty store beside `path` (`graph.redb.rebuild-PID`), to be filled and then put
    /// in place of the store at `path` with [`Store::replace`]. The writer's lock of `path` is
    /// held from now on, so no process writes the old store meanwhile; readers keep reading
    /// it until they reopen.
    pub fn create_replacement(path: impl AsRef<Path>) -> Result<Store, StoreError> {
        let path = path.as_ref();
        let lock = WriterLock::acquire(path)?;
        let mut name = path.file_name().unwrap_or_default().to_os_string();
        name.push(format!(".rebuild-{}", std::process::id()));
        let temporary = path.with_file_name(name);
        let _ = std::fs::remove_file(&temporary);
        let boundary = Boundary::new(&temporary);
        let db = boundary.run("create", || {
            builder(false, WRITER_CACHE_BYTES)
                .create(&temporary)
                .ctx("create")
        })?;
        let store = Store::with_handle(Handle::Writer(db), Some(lock), boundary, path);
        store.initialise()?;
        Ok(store)
    }

    /// Puts a store made by [`Store::create_replacement`] in place of `path`, atomically: a
    /// reader opening `path` sees the old store or the new one, never neither.
    pub fn replace(mut self, path: impl AsRef<Path>) -> Result<(), StoreError> {
        let path = path.as_ref();
        let temporary: PathBuf = self.boundary.path().to_path_buf();
        let lock = self.lock.take();
        drop(self);
        verified::stamp(&temporary);
        std::fs::rename(verified::stamp_path(&temporary), verified::stamp_path(path))
            .map_err(|err| StoreError::from_io(path, "replace", err))?;
        std::fs::rename(&temporary, path)
            .map_err(|err| StoreError::from_io(path, "replace", err))?;
        // The rename keeps the modification time, so the moved stamp still matches.
        drop(lock);
        Ok(())
    }

    /// The writable handle, locked for reading (a compaction waits until it is let go).
    pub(super) fn writer(
        &self,
    ) -> Result<parking_lot::MappedRwLockReadGuard<'_, Database>, StoreError> {
        parking_lot::RwLockReadGuard::try_map(self.db.read(), |db| match db.as_deref() {
            Some(Handle::Writer(db)) => Some(db),
            _ => None,
        })
        .map_err(|_| StoreError::ReadOnly {
            path: self.path().to_path_buf(),
        })
    }

    /// The store's file.
    pub fn path(&self) -> &Path {
        self.boundary.path()
    }

    /// A consistent read-only view of the graph as of the last commit (for a read-only
    /// handle: the writer's last commit when the snapshot is taken).
    ///
    /// When the store names a graph file, the snapshot reads node records, adjacency and IDs
    /// from it (mapped, shared with every other process) through the overlay of what changed
    /// since it was built; otherwise from redb's tables. Either way it sees one state: the
    /// file and the overlay are both read at the snapshot's generation.
    pub fn snapshot(&self) -> Result<Snapshot, StoreError> {
        let snapshot = self.table_snapshot()?;
        Ok(match self.served_for(&snapshot)? {
            Some(Served { graph, overlay, .. }) => snapshot.with_mapped(graph, overlay),
            None => snapshot,
        })
    }

    /// A snapshot that reads redb's tables only.
    fn table_snapshot(&self) -> Result<Snapshot, StoreError> {
        match self.db.read().as_deref() {
            Some(Handle::Writer(db)) => Snapshot::new(db, self.boundary.clone()),
            Some(Handle::Reader(db)) => Snapshot::new(db, self.boundary.clone()),
            None => Err(self.boundary.corrupted("read", "the store is closed")),
        }
    }

    /// The graph file and overlay serving `snapshot`'s state: the file mapped once per file
    /// and handle, the overlay loaded once per state.
    fn served_for(&self, snapshot: &Snapshot) -> Result<Option<Served>, StoreError> {
        let generation = snapshot.generation()?;
        let mut cached = self.served.lock();
        if let Some(served) = cached.as_ref()
            && served.generation == generation
        {
            return Ok(Some(served.clone()));
        }
        let named = snapshot.graph_file()?;
        let Some(named) = named.filter(|named| named.serves(generation)) else {
            // Nothing serves this state: let go of a mapping of a file that no longer serves.
            *cached = None;
            return Ok(None);
        };
        let graph = match cached.take() {
            Some(served) if served.graph.generation() == named.built => served.graph,
            _ => {
                let path = self.home.with_file_name(&named.name);
                let opened = self.run("map the graph file", || {
                    mapped::MappedGraph::open(&path, named.built)
                })?;
                match opened {
                    Some(graph) => Arc::new(graph),
                    // Named but gone (a writer replaced it since): the tables answer.
                    None => return Ok(None),
                }
            }
        };
        let served = Served {
            graph,
            overlay: Arc::new(snapshot.load_overlay()?),
            generation,
        };
        *cached = Some(served.clone());
        Ok(Some(served))
    }

    /// Writes the graph file of the store's current state, unless one serves it with an
    /// empty overlay, and puts it in place (see `mapped/place.rs` for the commit order); then
    /// deletes older ones. Returns whether a file was written. A writer calls this when it has
    /// finished a batch of commits (after a full index): the commit naming the file advances
    /// the generation, so a caller that records generations reads it again afterwards.
    pub fn write_graph_file(&self) -> Result<bool, StoreError> {
        self.graph_file_unless(0)
    }

    /// [`Store::write_graph_file`] only when no graph file serves the current state or its
    /// overlay holds more than `bound` entries ([`OVERLAY_BOUND`] by default): what a writer
    /// calls after updates, so that most updates cost only their overlay entries.
    pub fn refresh_graph_file(&self, bound: u64) -> Result<bool, StoreError> {
        self.graph_file_unless(bound)
    }

    /// The store's generation (read from its tables alone).
    pub fn generation(&self) -> Result<Generation, StoreError> {
        self.table_snapshot()?.generation()
    }

    /// Builds a graph file unless one serves the current state with an overlay of at most
    /// `overlay` entries.
    fn graph_file_unless(&self, bound: u64) -> Result<bool, StoreError> {
        let snapshot = self.table_snapshot()?;
        let generation = snapshot.generation()?;
        if self.serving(&snapshot, generation)? && snapshot.overlay_len()? <= bound {
            return Ok(false);
        }
        self.build_graph_file(snapshot, generation)
    }

    /// Whether a graph file should be built: none serves the current state, or its overlay
    /// holds more than `bound` entries (by default [`OVERLAY_BOUND`]).
    pub fn graph_file_due(&self, bound: u64) -> Result<bool, StoreError> {
        let snapshot = self.table_snapshot()?;
        let generation = snapshot.generation()?;
        Ok(!self.serving(&snapshot, generation)? || snapshot.overlay_len()? > bound)
    }

    /// Whether the file the store names serves `generation` and is there.
    fn serving(&self, snapshot: &Snapshot, generation: Generation) -> Result<bool, StoreError> {
        // A named file that is gone (deleted by hand, or by a crash's sweep) serves nothing.
        Ok(snapshot.graph_file()?.is_some_and(|named| {
            named.serves(generation) && self.home.with_file_name(&named.name).exists()
        }))
    }

    /// How many entries the overlay of the current state holds (0 without a graph file).
    pub fn overlay_len(&self) -> Result<u64, StoreError> {
        self.table_snapshot()?.overlay_len()
    }

    /// Builds the graph file of `snapshot` (at `generation`) and names it; `false` when a
    /// commit came between and the file was dropped.
    fn build_graph_file(
        &self,
        snapshot: Snapshot,
        generation: Generation,
    ) -> Result<bool, StoreError> {
        drop(self.writer()?);
        let built = self.build_aside(snapshot, generation)?;
        self.name_graph_file(built)
    }

    /// Builds the graph file of the store's current state and puts it in place without
    /// naming it: any handle can, a read-only one included, so a long-lived writer can have
    /// the build done beside it and only name the file ([`Store::name_graph_file`]) under its
    /// writer role, carrying over the edits it committed meanwhile.
    pub fn build_graph_file_aside(&self) -> Result<BuiltGraphFile, StoreError> {
        let snapshot = self.table_snapshot()?;
        let generation = snapshot.generation()?;
        self.build_aside(snapshot, generation)
    }

    fn build_aside(
        &self,
        snapshot: Snapshot,
        generation: Generation,
    ) -> Result<BuiltGraphFile, StoreError> {
        let named = mapped::GraphFileName::new(&self.home, generation);
        let path = self.home.with_file_name(&named.name);
        // A name of its own per build: two builders of one state (a sync beside a builder
        // thread, two processes) never write the same file.
        let aside = mapped::aside_path(&path);
        let named_before = snapshot.graph_file()?;
        mapped::crash_point("graph-file-start");
        // A second snapshot of the same state lets the ID index be built beside the rest.
        let ids_snapshot = self
            .table_snapshot()
            .ok()
            .filter(|ids| ids.generation().ok() == Some(generation));
        let written = self.run("write the graph file", || {
            let slots = snapshot.key_bound()?;
            mapped::build(&snapshot, ids_snapshot, generation, slots, &aside)
        });
        if let Err(err) = written {
            let _ = std::fs::remove_file(&aside);
            return Err(err);
        }
        drop(snapshot);
        mapped::crash_point("graph-file-written");
        std::fs::rename(&aside, &path)
            .and_then(|()| mapped::sync_folder(&path))
            .map_err(|err| StoreError::from_io(&path, "put the graph file in place", err))?;
        // The builder hashed every byte it wrote: the file is as sound as a verified one.
        verified::stamp(&path);
        mapped::crash_point("graph-file-renamed");
        Ok(BuiltGraphFile {
            named,
            named_before,
            path,
            kept: false,
        })
    }

    /// Names a graph file built aside, so readers use it; returns `false` (and deletes the
    /// file) when it can no longer serve. It can when the store is still at the state it
    /// was built from, or when the file named at the build is still named: every commit since
    /// is then in the overlay, whose entries say what holds now, so the entries up to the
    /// build's state are dropped and later ones kept. (A commit since a build with no file
    /// named left no overlay entries; a full index since forgot the named file.)
    pub fn name_graph_file(&self, mut built: BuiltGraphFile) -> Result<bool, StoreError> {
        let guard = self.writer()?;
        let db: &Database = &guard;
        let generation = built.named.built;
        let named_it = self.committed(self.run("name the graph file", || {
            let txn = begin_write(db)?;
            let now = read_generation(&txn)?;
            let named_now = read_graph_file(&txn)?;
            if named_now.as_ref() == Some(&built.named) {
                // Another builder of the same state named the same file first.
                built.kept = true;
                return Ok(false);
            }
            // Swept meanwhile (a writable open with no file named sweeps every file).
            if !built.path.exists() {
                return Ok(false);
            }
            let carried = built.named_before.is_some()
                && named_now == built.named_before
                && now.store == generation.store;
            if now != generation && !carried {
                return Ok(false);
            }
            {
                let mut meta = txn.open_table(META).ctx("open meta")?;
                meta.insert(tables::META_GRAPH_FILE, built.named.to_bytes().as_slice())
                    .ctx("write meta")?;
            }
            overlay::prune(&txn, generation)?;
            write::commit(txn)?;
            Ok(true)
        }))?;
        if !named_it {
            // Dropping `built` deletes the file, unless another builder's naming kept it.
            return Ok(built.kept);
        }
        built.kept = true;
        mapped::crash_point("graph-file-committed");
        let sweep = mapped::Sweep::AfterNaming {
            store: generation.store,
        };
        mapped::sweep_orphans(&self.home, Some(&built.named.name), sweep);
        Ok(true)
    }

    /// Deletes graph files no commit names (a writer killed before naming its file, files
    /// replaced while a reader still mapped them).
    fn sweep_graph_files(&self) -> Result<(), StoreError> {
        let snapshot = self.table_snapshot()?;
        let named = snapshot.graph_file()?;
        let sweep = mapped::Sweep::AtOpen {
            store: snapshot.generation()?.store,
            named: named.as_ref().map(|named| named.built.commits),
        };
        mapped::sweep_orphans(&self.home, named.as_ref().map(|n| n.name.as_str()), sweep);
        Ok(())
    }

    /// Replaces the whole graph with `batch` in one transaction.
    pub fn replace_all(&self, batch: &GraphBatch) -> Result<StoreStats, StoreError> {
        let guard = self.writer()?;
        let db: &Database = &guard;
        self.committed(self.run("write", || write::replace_all(db, batch)))
    }

    /// Records the file as the writer left it, after a commit.
    fn committed<T>(&self, result: Result<T, StoreError>) -> Result<T, StoreError> {
        if result.is_ok() {
            verified::stamp(self.path());
        }
        result
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
        let guard = self.writer()?;
        let db: &Database = &guard;
        let written = self.run("write", || {
            write::replace_files(db, batch, removed_files, (false, None))
        });
        self.committed(written.map(|(stats, _)| stats))
    }

    /// [`Store::replace_files`], with metadata made while the batch is written: `late_meta`
    /// is called once the batch's nodes and edges are in the transaction (not at all when
    /// writing them failed), and what it gives is committed with them. A caller that encodes large metadata on another thread and
    /// joins it here writes the graph meanwhile. `late_meta` must not panic (it runs where a
    /// panic is taken for redb's, which leaves the store unusable): a caller whose encoder
    /// failed gives nothing and reports the failure after the write.
    ///
    /// ```
    /// # use tsgraph_engine::{GraphBatch, Store};
    /// let dir = tempfile::tempdir()?;
    /// let store = Store::open_or_create(dir.path().join("g.redb"))?;
    /// let made = std::thread::spawn(|| vec![("note".to_owned(), b"made aside".to_vec())]);
    /// let mut made = Some(made);
    /// store.replace_files_with_late_meta(&GraphBatch::default(), &[], &mut || {
    ///     made.take().and_then(|thread| thread.join().ok()).unwrap_or_default()
    /// })?;
    /// assert_eq!(store.snapshot()?.meta("note")?.as_deref(), Some(&b"made aside"[..]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn replace_files_with_late_meta(
        &self,
        batch: &GraphBatch,
        removed_files: &[&str],
        late_meta: &mut dyn FnMut() -> Vec<(String, Vec<u8>)>,
    ) -> Result<StoreStats, StoreError> {
        let guard = self.writer()?;
        let db: &Database = &guard;
        let written = self.run("write", || {
            write::replace_files(db, batch, removed_files, (false, Some(&mut *late_meta)))
        });
        self.committed(written.map(|(stats, _)| stats))
    }

    /// [`Store::replace_files`], also saying what the write changed: the nodes and edges
    /// added, removed and changed, read from the old graph as the write replaces it (so the
    /// cost grows with the rewritten files and their edges, not with the graph).
    pub fn replace_files_tracked(
        &self,
        batch: &GraphBatch,
        removed_files: &[&str],
    ) -> Result<GraphDelta, StoreError> {
        let guard = self.writer()?;
        let db: &Database = &guard;
        let written = self.run("write", || {
            write::replace_files(db, batch, removed_files, (true, None))
        });
        self.committed(written.map(|(_, delta)| delta.unwrap_or_default()))
    }

    /// Records new size and modification stamps of files whose contents did not change (so
    /// the next sync need not read them again).
    pub fn update_file_stamps(&self, stamps: &[(String, u64, u64)]) -> Result<(), StoreError> {
        let guard = self.writer()?;
        let db: &Database = &guard;
        self.committed(self.run("write", || write::update_file_stamps(db, stamps)))
    }

    /// Stores a metadata value (project root, config hash, index summary, …).
    pub fn set_meta(&self, key: &str, value: &[u8]) -> Result<(), StoreError> {
        self.set_metas(&[(key, value)])
    }

    /// Sets several metadata entries in one commit.
    pub fn set_metas(&self, entries: &[(&str, &[u8])]) -> Result<(), StoreError> {
        let guard = self.writer()?;
        let db: &Database = &guard;
        self.committed(self.run("write meta", || {
            let txn = begin_write(db)?;
            {
                let mut meta = txn.open_table(META).ctx("open meta")?;
                for (key, value) in entries {
                    meta.insert(*key, *value).ctx("write meta")?;
                }
            }
            write::commit(txn)
        }))
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
        let guard = self.writer()?;
        let db: &Database = &guard;
        self.run("initialise", || {
            let txn = begin_write(db)?;
            write::create_tables(&txn)?;
            write::commit(txn)
        })
    }

    /// A read transaction on the last commit, of a writer or a reader handle alike.
    fn begin_read(&self) -> Result<redb::ReadTransaction, StoreError> {
        match self.db.read().as_deref() {
            Some(Handle::Writer(db)) => db.begin_read().ctx("begin read"),
            Some(Handle::Reader(db)) => db.begin_read().ctx("begin read"),
            None => Err(StoreError::corrupted("", "the store is closed")),
        }
    }

    fn check_schema(&self) -> Result<(), StoreError> {
        let found = self.run("read schema version", || {
            let txn = self.begin_read()?;
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
            if self.is_read_only() {
                return Err(StoreError::corrupted("", "an empty store (never written)"));
            }
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

impl Drop for Store {
    fn drop(&mut self) {
        let db = self.db.get_mut();
        let was_writer = matches!(db.as_deref(), Some(Handle::Writer(_)));
        // Closing writes redb's own bookkeeping; the stamp records the file after it.
        db.take();
        if was_writer && !self.boundary.is_poisoned() {
            verified::stamp(self.boundary.path());
        }
        self.lock.take();
    }
}

/// The graph file the store names, as `txn` sees it.
fn read_graph_file(
    txn: &redb::WriteTransaction,
) -> Result<Option<mapped::GraphFileName>, StoreError> {
    use redb::ReadableTable;
    let meta = txn.open_table(META).ctx("open meta")?;
    let bytes = meta.get(tables::META_GRAPH_FILE).ctx("read meta")?;
    Ok(bytes.and_then(|bytes| mapped::GraphFileName::from_bytes(bytes.value())))
}

/// The store's generation as `txn` sees it.
pub(super) fn read_generation(txn: &redb::WriteTransaction) -> Result<Generation, StoreError> {
    use redb::ReadableTable;
    let meta = txn.open_table(META).ctx("open meta")?;
    let bytes = meta.get(tables::META_GENERATION).ctx("read generation")?;
    match bytes {
        Some(bytes) => Generation::from_bytes(bytes.value())
            .ok_or_else(|| StoreError::corrupted("meta", "generation")),
        None => Ok(Generation::default()),
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
