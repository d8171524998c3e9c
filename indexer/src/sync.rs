//! The start-up sync: brings a store up to date with the files on disk. Files are compared
//! cheaply first (size and modification time), then by content hash; only what changed is
//! extracted, and only the files whose answers can change are re-linked (see
//! [`crate::IndexState::apply`]). With nothing changed, no summary is even read.
//!
//! A long-lived process keeps its [`IndexState`] between syncs. Before it writes, the state is
//! brought level with the store ([`catch_up`]): another process may have written since, which
//! the store's generation tells.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::{Duration, Instant};

use tsgraph_engine::{EdgeKind, Generation, GraphBatch, Snapshot, Store};
use xxhash_rust::xxh3::xxh3_64;

use crate::facts::FileFacts;
use crate::model::{KEPT_MODEL_META_KEY, MODEL_INPUTS_META_KEY, ProjectModel};
use crate::relink::RelinkReason;
use crate::state::{FileChange, IndexState, StoredGraph, Summarised, Update};
use crate::summary::{IndexError, IndexSummary};
use crate::walk_listing::{self, LISTING_META_KEY};
use crate::{INDEXED_META_KEY, IndexOptions, indexed_marker, mark_indexed, persist, pool, walk};

/// Every stored file's (content hash, size, modification time), by path.
pub(crate) type Stamps = rustc_hash::FxHashMap<String, (u64, u64, u64)>;

/// What a sync found that a state read from the store right after it can take instead of
/// finding it again (see [`restore_stored`]).
#[derive(Debug, Default)]
pub(crate) struct Findings {
    /// The configuration files the sync's walk found.
    pub(crate) configs: Option<Vec<String>>,
    /// The stored stamps the sync read, with the store state they are the stamps of (a sync
    /// that found no change commits none that moves them).
    pub(crate) stamps: Option<(Generation, Stamps)>,
}

/// The metadata key of the project model's fingerprint.
pub(crate) const MODEL_META_KEY: &str = "model_fingerprint";
/// The metadata key of the configuration files' stamps (paths, sizes, modification times).
pub(crate) const CONFIGS_META_KEY: &str = "config_stamps";

/// A digest of the configuration files' paths, sizes and modification times: unchanged, the
/// project model need not be read again.
pub(crate) fn config_stamp(configs: &[walk::SourceFile]) -> Vec<u8> {
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    for config in configs {
        hasher.update(config.relative.as_bytes());
        hasher.update(&config.size.to_le_bytes());
        hasher.update(&config.modified.to_le_bytes());
    }
    hasher.digest().to_le_bytes().to_vec()
}

/// What a sync did.
#[derive(Debug, Clone, Default)]
pub struct SyncSummary {
    /// Files on disk compared with the store.
    pub checked: usize,
    /// Files new on disk.
    pub added: Vec<String>,
    /// Files whose contents changed.
    pub changed: Vec<String>,
    /// Files gone from disk.
    pub removed: Vec<String>,
    /// Files re-linked (the changed ones and those whose answers depend on them).
    pub relinked: usize,
    /// Each re-linked file with why it was (`index --explain` lists them).
    pub relinked_files: Vec<(String, RelinkReason)>,
    /// Stored summaries this sync read to bring its state level with the store: every
    /// one when the state was restored whole, those the update asked for when it was
    /// resumed from the store's kept resolution (`index --explain` says how many).
    pub summaries_read: usize,
    /// Importers whose import uses (a small part stored in front of each summary) this sync
    /// read to decide which of them a change reaches: only those whose reach key names a
    /// changed name.
    pub uses_read: usize,
    /// The store held no completed index, or the project's configuration changed: the
    /// project was indexed from scratch (this is that index's summary).
    pub full: Option<IndexSummary>,
    /// The files were found without a walk: the stamps of the folders and ignore files the
    /// last whole walk read were as it left them (`walk_listing.rs`).
    pub walk_skipped: bool,
    /// The project model was the one the store kept, its checks holding (`model/cache.rs`),
    /// rather than read from the configuration files.
    pub model_kept: bool,
    /// Wall time.
    pub time: Duration,
}

impl SyncSummary {
    /// Whether the store already matched the disk.
    pub fn is_noop(&self) -> bool {
        self.full.is_none()
            && self.added.is_empty()
            && self.changed.is_empty()
            && self.removed.is_empty()
    }
}

/// Brings `store` up to date with the project under `root`.
pub fn sync_project(
    root: &Path,
    store: &Store,
    options: &IndexOptions,
) -> Result<SyncSummary, IndexError> {
    let mut state = None;
    let mut findings = Findings::default();
    let synced = sync_store(root, store, options, (&mut state, &mut findings), &|_| {
        false
    });
    discard_aside(state);
    synced
}

/// Frees a state nobody keeps on a thread of its own. A project's summaries are some
/// million small arrays, and freeing them took longer than the update that needed them (a
/// tenth of a one-file `tsgraph index` on effect); a process that ends meanwhile, as the
/// CLI's does, hands the memory back whole.
fn discard_aside(state: Option<IndexState>) {
    if let Some(state) = state {
        // Without a thread (none could be made) the state is freed here, as before.
        let _ = std::thread::Builder::new()
            .name("tsgraph-discard".into())
            .spawn(move || drop(state));
    }
}

/// Files on disk that differ from the store, as changes to apply.
struct DiskChanges {
    changes: Vec<FileChange>,
    /// Files whose stamps changed but whose contents did not: (path, size, modified).
    restamp: Vec<(String, u64, u64)>,
}

/// [`sync_project`] for a caller that keeps the state (`slot`, loaded here when `None` and
/// needed) and holds some files in an editor (`held`: those are left as they are). `configs`
/// receives the configuration files the walk found, for a project model loaded later (see
/// [`restore_stored`]).
///
/// When the commits of an incremental sync grew the store file, the file is compacted after
/// them: redb grows a file by doubling it (see `Store::compact`).
pub(crate) fn sync_store(
    root: &Path,
    store: &Store,
    options: &IndexOptions,
    (slot, findings): (&mut Option<IndexState>, &mut Findings),
    held: &dyn Fn(&str) -> bool,
) -> Result<SyncSummary, IndexError> {
    let before = store.file_len()?;
    let summary = sync_store_uncompacted(root, store, options, (slot, findings), held)?;
    // A full index grows the file from nothing and leaves a free tail (up to the doubling
    // past what it needed); compacting it would cost a fresh index a second at 1M lines, and
    // the first edit that grows the file compacts it anyway.
    if summary.full.is_none() {
        // The sync's commits stand whatever happens here; a compaction that fails leaves the
        // file as long as it was, and the next sync that grows it tries again.
        let _ = store.compact_if_grown(before);
    }
    Ok(summary)
}

fn sync_store_uncompacted(
    root: &Path,
    store: &Store,
    options: &IndexOptions,
    (slot, findings): (&mut Option<IndexState>, &mut Findings),
    held: &dyn Fn(&str) -> bool,
) -> Result<SyncSummary, IndexError> {
    let started = Instant::now();
    let snapshot = store.snapshot()?;
    let kept_listing = snapshot.meta(LISTING_META_KEY)?;
    let (walked, listed, new_listing) =
        walk_listing::walk(root, options.max_file_size, kept_listing.as_deref());
    let paths: Vec<&str> = walked.files.iter().map(|f| f.relative.as_str()).collect();
    let listing: Vec<String> = walked.configs.iter().map(|c| c.relative.clone()).collect();
    findings.configs = Some(listing.clone());
    // An index made by another version of the indexer, or whose summaries are of another
    // version, counts as none: it is made again.
    let indexed = snapshot.meta(INDEXED_META_KEY)?.as_deref() == Some(indexed_marker().as_slice());
    // The configuration is read again only when a configuration file changed on disk (by its
    // stamp), and the project is indexed afresh only when what it says changed.
    let configs = config_stamp(&walked.configs);
    let configs_unchanged = snapshot.meta(CONFIGS_META_KEY)?.as_deref() == Some(configs.as_slice())
        && model_inputs_hold(root, &snapshot, &walked.configs)?;
    let load_model = |paths: &[&str]| ProjectModel::load_walked(root, paths, listing.clone());
    if !indexed || !configs_unchanged {
        let loaded = load_model(&paths);
        if !indexed || !same_model(&snapshot, &loaded)? {
            drop(snapshot);
            return index_afresh(root, store, options, (slot, started));
        }
        // Empty: nothing known to check.
        let inputs = loaded.inputs_form().unwrap_or_default();
        store.set_metas(&[
            (CONFIGS_META_KEY, &configs),
            (MODEL_INPUTS_META_KEY, &inputs),
        ])?;
    }
    let stored = stored_stamps(&snapshot)?;
    let mut summary = SyncSummary {
        checked: walked.files.len(),
        walk_skipped: listed,
        ..SyncSummary::default()
    };
    let disk = compare_with_disk(&walked.files, &stored, held, &mut summary);
    if disk.changes.is_empty() {
        let generation = snapshot.generation()?;
        drop(snapshot);
        if !disk.restamp.is_empty() {
            store.update_file_stamps(&disk.restamp)?;
        }
        let restamped = !disk.restamp.is_empty();
        keep_listing(store, new_listing);
        store.refresh_graph_file(options.graph_file_bound)?;
        // New stamps and a graph file change no summary: a state level with the store before
        // them still is.
        let now = store.generation()?;
        if let Some(kept) = slot.as_mut()
            && kept.generation == Some(generation)
        {
            kept.generation = Some(now);
        }
        // A listing and a graph file change no stamp either; new stamps do.
        if !restamped {
            findings.stamps = Some((now, stored));
        }
        summary.time = started.elapsed();
        return Ok(summary);
    }
    // The state as the store has it: its model knows the stored files, and the update then
    // tells it which came and went (a model of the disk's files would resolve the stored
    // summaries' imports to files not in the state yet, or no longer).
    let model_kept = std::cell::Cell::new(false);
    let read_state = |resume: bool| {
        let stored_paths: Vec<&str> = stored.keys().map(String::as_str).collect();
        let model = || match kept_model(root, &snapshot, &listing, &stored_paths) {
            Some(kept) => {
                model_kept.set(true);
                kept
            }
            None => load_model(&stored_paths),
        };
        match resume {
            true => state_of_store(root, &snapshot, &stored, model),
            false => {
                model_kept.set(false);
                let model = load_model(&stored_paths);
                Ok((restore(root, &snapshot, &stored, model)?, true))
            }
        }
    };
    let mut kept = match slot.take() {
        Some(kept) => kept,
        None => {
            let (state, whole) = read_state(true)?;
            // The configuration says something else than when the project was indexed
            // (a file it reads changed unseen, as a declaration file an entry point names
            // appearing): the project is indexed afresh, as for a changed tsconfig.json.
            if !same_model(&snapshot, state.model())? {
                drop(snapshot);
                return index_afresh(root, store, options, (slot, started));
            }
            if whole {
                summary.summaries_read = stored.len();
            }
            state
        }
    };
    // The changes (file texts) are kept for a second try only where one can come.
    let again = kept.is_resumed().then(|| disk.changes.clone());
    let (update, read) = update_state(&mut kept, store, root, (&snapshot, &stored), disk.changes);
    summary.summaries_read += read.0;
    summary.uses_read += read.1;
    let update = match (update, again) {
        (Ok(update), _) => update,
        // A resumed state that could not read a summary it needed (the store's summary
        // damaged, or a read that failed): the update is made again from every summary.
        (Err(_), Some(changes)) => {
            kept = read_state(false)?.0;
            summary.summaries_read += stored.len();
            let (update, read) =
                update_state(&mut kept, store, root, (&snapshot, &stored), changes);
            summary.uses_read += read.1;
            update?
        }
        (Err(err), None) => return Err(err),
    };
    drop(snapshot);
    summary.model_kept = model_kept.get();
    summary.relinked = update.relinked.len();
    summary.relinked_files = (update.relinked.iter().cloned())
        .zip(update.reasons.iter().cloned())
        .collect();
    // A failed write leaves the store as it was and the state ahead of it: it is dropped
    // (left `None`), to be read again.
    write_update(store, &mut kept, update, root, Writer::Sync)?;
    if !disk.restamp.is_empty() {
        store.update_file_stamps(&disk.restamp)?;
    }
    keep_listing(store, new_listing);
    // Queries read the graph file (and its overlay) of the state this sync leaves.
    store.refresh_graph_file(options.graph_file_bound)?;
    kept.generation = Some(store.generation()?);
    *slot = Some(kept);
    summary.time = started.elapsed();
    Ok(summary)
}

/// Whether `model` is the one the store's index was made under (by its fingerprint).
fn same_model(snapshot: &Snapshot, model: &ProjectModel) -> Result<bool, IndexError> {
    let fingerprint = model.fingerprint().to_le_bytes();
    Ok(snapshot.meta(MODEL_META_KEY)?.as_deref() == Some(fingerprint.as_slice()))
}

/// Indexes the project from scratch into `store`, keeping the state in `slot`.
fn index_afresh(
    root: &Path,
    store: &Store,
    options: &IndexOptions,
    (slot, started): (&mut Option<IndexState>, Instant),
) -> Result<SyncSummary, IndexError> {
    let (built, summary) = crate::index_with_state(root, store, options)?;
    *slot = Some(built);
    Ok(SyncSummary {
        checked: summary.files,
        full: Some(summary),
        time: started.elapsed(),
        ..SyncSummary::default()
    })
}

/// Stores the listing a whole walk made, when it differs from the one kept: the next
/// process's sync then looks at stamps instead of walking. Only a speed-up: a listing that
/// cannot be written leaves the sync done (its own commits stand) and the next one walks.
fn keep_listing(store: &Store, listing: Option<Vec<u8>>) {
    if let Some(listing) = listing {
        let _ = store.set_meta(LISTING_META_KEY, &listing);
    }
}

/// Catches `state` up with the store and applies `changes` to it, reading the summaries it
/// needs through a snapshot attached for the while (the writer's lock is held: it sees the
/// same store state as `snapshot`). Returns the update, and how many summaries and how
/// many files' import uses apart from them were read.
fn update_state(
    state: &mut IndexState,
    store: &Store,
    root: &Path,
    (snapshot, stored): (&Snapshot, &Stamps),
    changes: Vec<FileChange>,
) -> (Result<Update, IndexError>, (usize, usize)) {
    let read_before = (state.summaries_read(), state.uses_read());
    let update = state.reading_from(store, |state| {
        catch_up(state, root, snapshot, stored)?;
        state.apply(changes, snapshot)
    });
    // A catch-up that read the state afresh counts from nothing.
    let read = (
        state.summaries_read().saturating_sub(read_before.0),
        state.uses_read().saturating_sub(read_before.1),
    );
    (update, read)
}

/// Every stored file's (hash, size, modified), by path.
pub(crate) fn stored_stamps(snapshot: &Snapshot) -> Result<Stamps, IndexError> {
    Ok(snapshot
        .file_stamps()?
        .into_iter()
        .map(|s| (s.path, (s.hash, s.size, s.modified)))
        .collect())
}

/// Compares the walked files with the stored stamps: a file whose size and modification time
/// match is taken as unchanged; otherwise its bytes are read and hashed. Files the editor
/// holds are left out. Fills the summary's added, changed and removed lists.
fn compare_with_disk(
    files: &[walk::SourceFile],
    stored: &Stamps,
    held: &dyn Fn(&str) -> bool,
    summary: &mut SyncSummary,
) -> DiskChanges {
    let mut disk = DiskChanges {
        changes: Vec::new(),
        restamp: Vec::new(),
    };
    for file in files {
        if held(&file.relative) {
            continue;
        }
        let (size, modified) = (file.size, file.modified);
        let known = stored.get(&file.relative);
        if let Some(&(_, stored_size, stored_modified)) = known
            && stored_size == size
            && stored_modified == modified
            && modified != 0
        {
            continue;
        }
        let Ok(bytes) = std::fs::read(&file.absolute) else {
            continue;
        };
        match known {
            Some(&(hash, _, _)) if xxh3_64(&bytes) == hash => {
                disk.restamp.push((file.relative.clone(), size, modified));
                continue;
            }
            Some(_) => summary.changed.push(file.relative.clone()),
            None => summary.added.push(file.relative.clone()),
        }
        disk.changes.push(FileChange::Write {
            path: file.relative.clone(),
            bytes,
            modified,
        });
    }
    let on_disk: BTreeSet<&str> = files.iter().map(|f| f.relative.as_str()).collect();
    for path in stored.keys() {
        if !on_disk.contains(path.as_str()) && !held(path) {
            summary.removed.push(path.clone());
            disk.changes.push(FileChange::Remove { path: path.clone() });
        }
    }
    summary.added.sort();
    summary.changed.sort();
    summary.removed.sort();
    disk
}

/// Who writes an update, which decides what the commit carries besides it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Writer {
    /// A sync: the commit keeps the state's resolution with the summaries
    /// ([`crate::resume`]), so that the next process resumes from it.
    Sync,
    /// An editor's edit: the commit says what changed in the graph, and leaves the kept
    /// resolution behind (encoding it took three times an edit on the 1M-line synthetic);
    /// [`crate::LiveIndex::keep_resolution`] writes it later.
    Edit,
}

/// Writes an update into the store in one transaction and records the store state the
/// index state now matches. An [`Writer::Edit`] says what changed in the graph.
pub(crate) fn write_update(
    store: &Store,
    state: &mut IndexState,
    update: Update,
    root: &Path,
    writer: Writer,
) -> Result<Option<tsgraph_engine::GraphDelta>, IndexError> {
    let Update {
        mut batch, removed, ..
    } = update;
    mark_indexed(&mut batch, root);
    let removed: Vec<&str> = removed.iter().map(String::as_str).collect();
    let delta = match writer {
        Writer::Edit => Some(store.replace_files_tracked(&batch, &removed)?),
        Writer::Sync => {
            write_with_resolution(store, state, (&batch, &removed))?;
            None
        }
    };
    // The writer's lock is held, so no other commit comes between.
    state.generation = Some(store.generation()?);
    Ok(delta)
}

/// Writes a sync's batch with what resolution computed, kept with the summaries it came from
/// in one commit, and with a model built for this state, once, for the next process to take
/// (an editor's edit leaves both behind: see [`Writer::Edit`]). The resolution is encoded on
/// a thread of its own while the graph is written: on the 1M-line synthetic each took some
/// seven milliseconds of a one-file sync (2026-11).
fn write_with_resolution(
    store: &Store,
    state: &mut IndexState,
    (batch, removed): (&GraphBatch, &[&str]),
) -> Result<(), IndexError> {
    let encode = |state: &mut IndexState| {
        let mut meta = vec![crate::resume::resolution_meta(state)];
        meta.extend(state.kept_model_meta());
        meta
    };
    let threaded = std::thread::scope(|scope| {
        let encoder = std::thread::Builder::new()
            .name("tsgraph-keep".into())
            .spawn_scoped(scope, || encode(&mut *state))
            .ok()?;
        // A panic while encoding gives no resolution: the commit keeps the old one, which a
        // later process resumes from only while it matches the stored summaries
        // (`resume::matches`); then the panic goes on.
        let mut encoder = Some(encoder);
        let mut failed = None;
        let written = store.replace_files_with_late_meta(batch, removed, &mut || match encoder
            .take()
            .map(|encoder| encoder.join())
        {
            Some(Ok(meta)) => meta,
            Some(Err(panic)) => {
                failed = Some(panic);
                Vec::new()
            }
            None => Vec::new(),
        });
        if let Some(panic) = failed {
            std::panic::resume_unwind(panic);
        }
        Some(written)
    });
    let written = match threaded {
        Some(written) => written,
        // No thread could be made: encoded here, then written.
        None => {
            let mut meta = Some(encode(state));
            store.replace_files_with_late_meta(batch, removed, &mut || {
                meta.take().unwrap_or_default()
            })
        }
    };
    written?;
    Ok(())
}

/// Brings a kept state level with the store when another process wrote since the state last
/// matched it: files whose stored hash differs take the stored summary, files gone from the
/// store are dropped. A changed project model means the state is read afresh.
pub(crate) fn catch_up(
    state: &mut IndexState,
    root: &Path,
    snapshot: &Snapshot,
    stored: &Stamps,
) -> Result<(), IndexError> {
    let generation = snapshot.generation()?;
    if state.generation == Some(generation) {
        return Ok(());
    }
    let fingerprint = state.model().fingerprint().to_le_bytes();
    if snapshot.meta(MODEL_META_KEY)?.as_deref() != Some(fingerprint.as_slice()) {
        let paths: Vec<&str> = stored.keys().map(String::as_str).collect();
        let model = ProjectModel::load(root, &paths);
        *state = restore(root, snapshot, stored, model)?;
        return Ok(());
    }
    let mut summaries = Vec::new();
    let mut reused = Reused::default();
    let mut unknown_shape = Vec::new();
    for (path, &(hash, _, modified)) in stored {
        if state.hash_of(path) == Some(hash) {
            continue;
        }
        let (facts, known) = stored_summary(snapshot, root, path, (hash, modified), &mut reused)?;
        if !known {
            unknown_shape.push(path.clone());
        }
        summaries.push(Summarised::Written(Box::new(facts)));
    }
    let gone: Vec<String> = state
        .file_hashes()
        .filter(|(path, _)| !stored.contains_key(*path))
        .map(|(path, _)| path.to_owned())
        .collect();
    summaries.extend(gone.into_iter().map(Summarised::Removed));
    state.absorb(summaries);
    // A summary read meanwhile that failed stood in as an empty one.
    if let Some(err) = state.take_failure() {
        return Err(err);
    }
    for path in &unknown_shape {
        state.forget_shape(path);
    }
    state.generation = Some(generation);
    Ok(())
}

/// A file's summary as the store keeps it, or, when that cannot be read, as extracted from
/// disk now (labelled with the stored hash, so a later change to it still applies). The flag
/// says whether the summary is the stored one. `reused` carries the decompression buffer
/// and the extractor from one summary to the next.
fn stored_summary(
    snapshot: &Snapshot,
    root: &Path,
    path: &str,
    (hash, modified): (u64, u64),
    reused: &mut Reused,
) -> Result<(FileFacts, bool), IndexError> {
    let buffer = &mut reused.buffer;
    let restored = snapshot
        .read_blob(path, |bytes| persist::decode_with(bytes, buffer))?
        .flatten()
        .filter(|facts| facts.hash == hash);
    if let Some(facts) = restored {
        return Ok((facts, true));
    }
    Ok((
        summary_from_disk(root, path, (hash, modified), reused)?,
        false,
    ))
}

/// A file's summary extracted from disk now, labelled with `hash` (the stored one), for a
/// stored summary that cannot be read: a later change to the file still applies.
pub(crate) fn summary_from_disk(
    root: &Path,
    path: &str,
    (hash, modified): (u64, u64),
    reused: &mut Reused,
) -> Result<FileFacts, IndexError> {
    Ok(match std::fs::read(root.join(path)) {
        Ok(bytes) => {
            let mut facts = pool::extract_one(reused.extractor()?, path, &bytes, hash);
            facts.modified = modified;
            facts
        }
        // Gone since: the sync's change list removes it.
        Err(_) => FileFacts {
            path: path.to_owned(),
            hash,
            ..FileFacts::default()
        },
    })
}

/// What a reader of many stored summaries keeps from one to the next: the buffer they are
/// decompressed into, and an extractor for the files whose summary cannot be read (made the
/// first time one is met: most reads meet none).
#[derive(Default)]
pub(crate) struct Reused {
    buffer: Vec<u8>,
    extractor: Option<crate::extract::Extractor>,
}

impl Reused {
    fn extractor(&mut self) -> Result<&mut crate::extract::Extractor, IndexError> {
        match &mut self.extractor {
            Some(extractor) => Ok(extractor),
            slot => Ok(slot.insert(
                crate::extract::Extractor::new()
                    .map_err(|err| IndexError::Grammar(err.to_string()))?,
            )),
        }
    }
}

/// The state of the store's index, read from the store alone (the project model from the
/// configuration files on disk: those a sync's walk just found, else found here; the stored
/// stamps as that sync read them when the store is still in that state): resumed when
/// `resume` says so and the store keeps a resolution that matches (see [`state_of_store`]),
/// else from every summary.
pub(crate) fn restore_stored(
    root: &Path,
    snapshot: &Snapshot,
    resume: bool,
    found: Findings,
) -> Result<IndexState, IndexError> {
    let Findings { configs, stamps } = found;
    let stored = match stamps {
        Some((at, stamps)) if at == snapshot.generation()? => stamps,
        _ => stored_stamps(snapshot)?,
    };
    let paths: Vec<&str> = stored.keys().map(String::as_str).collect();
    // Finding the configuration files walks the project again: a walk made before found
    // them. Their paths are resolved when read, as that walk may be some time ago.
    let model = || match configs {
        Some(configs) => kept_model(root, snapshot, &configs, &paths)
            .unwrap_or_else(|| ProjectModel::load_listed(root, &paths, configs)),
        None => ProjectModel::load(root, &paths),
    };
    if !resume {
        return restore(root, snapshot, &stored, model());
    }
    Ok(state_of_store(root, snapshot, &stored, model)?.0)
}

/// Whether what the last model built asked of the file system, but for the configuration
/// files the walk found (`walked`: their stamps are compared apart), is as it was: an
/// edited `extends` target changes the configuration as much as an edited tsconfig.json.
/// A store that keeps none (or an empty one) has nothing to check.
fn model_inputs_hold(
    root: &Path,
    snapshot: &Snapshot,
    walked: &[walk::SourceFile],
) -> Result<bool, IndexError> {
    let Some(bytes) = snapshot
        .meta(MODEL_INPUTS_META_KEY)?
        .filter(|b| !b.is_empty())
    else {
        return Ok(true);
    };
    let mut listed: Vec<&str> = walked.iter().map(|c| c.relative.as_str()).collect();
    listed.sort_unstable();
    Ok(crate::model::inputs_hold(root, &bytes, &listed))
}

/// The project model `snapshot` keeps, when it holds for `paths` and the configuration files
/// a walk found (`configs`): see `model::cache`.
fn kept_model(
    root: &Path,
    snapshot: &Snapshot,
    configs: &[String],
    paths: &[&str],
) -> Option<ProjectModel> {
    let bytes = snapshot.meta(KEPT_MODEL_META_KEY).ok()??;
    ProjectModel::from_kept(root, &bytes, configs, paths)
}

/// The state of the store's index (`stored`: its stamps): resumed from the resolution the
/// store keeps, no summary read yet ([`crate::resume`]), or, when it keeps none that
/// matches, restored from every summary. Says whether it was the latter.
///
/// The kept resolution is read, decoded and made ready on a thread of its own while
/// `load_model` loads the project model here: neither needs the other, and on the 1M-line
/// synthetic each took a sixth of a one-file `tsgraph index` or more.
pub(crate) fn state_of_store(
    root: &Path,
    snapshot: &Snapshot,
    stored: &Stamps,
    load_model: impl FnOnce() -> ProjectModel,
) -> Result<(IndexState, bool), IndexError> {
    let (model, prepared) = std::thread::scope(|scope| {
        let reader = std::thread::Builder::new()
            .name("tsgraph-kept".into())
            .spawn_scoped(scope, || crate::resume::prepare(snapshot, stored));
        let model = load_model();
        let prepared = match reader {
            Ok(reader) => reader
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            // No thread could be made: made here.
            Err(_) => crate::resume::prepare(snapshot, stored),
        };
        (model, prepared)
    });
    match crate::resume::resume(root, snapshot, model, prepared?)? {
        Ok(state) => Ok((state, false)),
        Err(model) => Ok((restore(root, snapshot, stored, model)?, true)),
    }
}

/// The state of the store's index, from the summaries it keeps (a file whose summary cannot
/// be read is extracted again from disk). Summaries are decoded on two threads: decoding is
/// most of the time.
pub(crate) fn restore(
    root: &Path,
    snapshot: &Snapshot,
    stored: &Stamps,
    model: ProjectModel,
) -> Result<IndexState, IndexError> {
    /// Summaries per chunk a thread takes: small enough to even out the threads' shares.
    const CHUNK: usize = 16;
    let entries: Vec<(&String, &(u64, u64, u64))> = stored.iter().collect();
    let read = crate::chunks::map_on_two_threads(
        &entries,
        CHUNK,
        Reused::default,
        |reused, &(path, &(hash, _, modified))| {
            stored_summary(snapshot, root, path, (hash, modified), reused)
        },
    )
    .map_err(|_| IndexError::Worker("a summary reader panicked".into()))?;
    let mut files: Vec<FileFacts> = Vec::with_capacity(stored.len());
    // Files whose stored summary could not be read were extracted from disk as they are
    // now: their old shape is unknown, so they count as changed in shape.
    let mut unknown_shape: Vec<String> = Vec::new();
    for read in read {
        let (facts, known) = read?;
        if !known {
            unknown_shape.push(facts.path.clone());
        }
        files.push(facts);
    }
    let (mut state, _) = IndexState::with_model(root, files, model)?;
    for path in &unknown_shape {
        state.forget_shape(path);
    }
    state.generation = Some(snapshot.generation()?);
    Ok(state)
}

/// The files (by path) holding edges into the nodes with these IDs.
impl StoredGraph for Snapshot {
    fn files_linked_into(&self, ids: &[String]) -> Vec<(String, String)> {
        let mut files = BTreeMap::new();
        for id in ids {
            let Ok(Some(key)) = self.key_of(id) else {
                continue;
            };
            let Ok(incoming) = self.in_edges(key) else {
                continue;
            };
            let Ok(edges) = incoming.edges() else {
                continue;
            };
            for edge in edges {
                if let Ok(Some(node)) = self.node(edge.other())
                    && let Ok(view) = node.view()
                {
                    files
                        .entry(view.file().to_owned())
                        .or_insert_with(|| id.clone());
                }
            }
        }
        files.into_iter().collect()
    }

    fn member_implements(&self, paths: &[String]) -> Vec<(String, String)> {
        let id_of =
            |key| -> Option<String> { Some(self.node(key).ok()??.view().ok()?.id().to_owned()) };
        let mut out = Vec::new();
        for path in paths {
            let Ok(Some(keys)) = self.file_keys(path) else {
                continue;
            };
            for key in keys {
                let Ok(list) = self.out_edges(key) else {
                    continue;
                };
                let Ok(edges) = list.edges() else {
                    continue;
                };
                for edge in edges.filter(|e| e.kind() == EdgeKind::Implements) {
                    if let (Some(source), Some(target)) = (id_of(key), id_of(edge.other()))
                        && target.contains('.')
                    {
                        out.push((source, target));
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use tsgraph_engine::Store;

    use crate::{INDEXED_META_KEY, INDEXER_VERSION, IndexOptions, index_project, sync_project};

    /// A project of one file, indexed: its folder (kept while the test runs), root, store
    /// and options.
    fn indexed_one_file() -> (tempfile::TempDir, std::path::PathBuf, Store, IndexOptions) {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path().join("project");
        std::fs::create_dir_all(&root).expect("folder");
        std::fs::write(root.join("a.ts"), "export const a = 1;\n").expect("write");
        let options = IndexOptions {
            threads: 1,
            ..IndexOptions::default()
        };
        let store = Store::open_or_create(dir.path().join("s.redb")).expect("store");
        index_project(&root, &store, &options).expect("index");
        (dir, root, store, options)
    }

    /// A sync that finds no change hands its stamps to the state read next, which takes them
    /// only while the store is in the state they were read at.
    #[test]
    fn a_state_read_after_a_sync_takes_its_stamps_only_while_the_store_is_as_it_left_them() {
        let (_dir, root, store, options) = indexed_one_file();
        let found = || {
            let mut findings = super::Findings::default();
            let synced =
                super::sync_store(&root, &store, &options, (&mut None, &mut findings), &|_| {
                    false
                });
            assert!(synced.expect("sync").is_noop());
            findings
        };
        let hash = |stamps: &super::Stamps| stamps.get("a.ts").map(|s| s.0);
        // As the store has them.
        let findings = found();
        let snapshot = store.snapshot().expect("snapshot");
        let (at, stamps) = findings.stamps.as_ref().expect("stamps handed on");
        assert_eq!(*at, snapshot.generation().expect("generation"));
        let stored = super::stored_stamps(&snapshot).expect("stamps");
        assert_eq!(hash(stamps), hash(&stored));
        drop(snapshot);
        // Another write moved the store on: the state reads the stamps again.
        std::fs::write(root.join("a.ts"), "export const a = 2;\n").expect("edit");
        assert!(
            !sync_project(&root, &store, &options)
                .expect("sync")
                .is_noop()
        );
        let snapshot = store.snapshot().expect("snapshot");
        let state = super::restore_stored(&root, &snapshot, true, findings).expect("state");
        let now = super::stored_stamps(&snapshot).expect("stamps");
        assert_ne!(hash(&now), hash(&stored), "the edit moved the stored hash");
        assert_eq!(state.hash_of("a.ts"), hash(&now));
    }

    /// A store whose summaries are of another version (an upgrade that changed only them):
    /// its next sync indexes it afresh rather than re-link every file from summaries it
    /// cannot read; one of this version is synced as usual.
    #[test]
    fn a_store_with_summaries_of_another_version_is_indexed_again() {
        let (_dir, root, store, options) = indexed_one_file();
        let synced = sync_project(&root, &store, &options).expect("sync");
        assert!(synced.full.is_none(), "this version's store is synced");
        let mut older = INDEXER_VERSION.to_vec();
        older.extend_from_slice(b" summaries 0");
        store
            .set_meta(INDEXED_META_KEY, &older)
            .expect("set marker");
        let synced = sync_project(&root, &store, &options).expect("sync");
        assert!(synced.full.is_some(), "indexed again from scratch");
        let marker = store.snapshot().expect("snapshot").meta(INDEXED_META_KEY);
        assert_eq!(marker.expect("meta"), Some(crate::indexed_marker()));
    }
}
