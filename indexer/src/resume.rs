//! Resuming an index state in a new process without decoding every summary.
//!
//! What resolution computes over the whole project (every file's resolved imports, export
//! tables and heritage clauses) is kept in the store beside the summaries it came from,
//! written in the same transaction as every update ([`resolution_meta`]). A new process
//! reads it back ([`resume`]) and reads a file's summary only when the update asks for it
//! ([`FactsTable`]): an edit reaches the summaries of the files it links and of what their
//! names resolve into. Decoding every summary was most of a one-file `tsgraph index`.
//!
//! The kept tables are trusted only for the summaries they were computed from: they name
//! every file's path and content hash, and a set that differs from the store's stamps (or a
//! project model with another fingerprint) is not resumed; the state is then restored from
//! every summary, as before.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use tsgraph_engine::Snapshot;

use crate::facts::FileFacts;
#[cfg(doc)]
use crate::facts_table::FactsTable;
use crate::facts_table::SummarySource;
use crate::import_uses::ImportUses;
use crate::model::ProjectModel;
use crate::resolve::{Clause, ExportTables, ModuleTarget};
use crate::state::IndexState;
use crate::summary::IndexError;

/// The metadata key of the kept resolution.
pub(crate) const RESOLUTION_META_KEY: &str = "resolution";

/// The format version of the kept resolution, with the summaries' (their ids are in it):
/// another version is not resumed.
const RESOLUTION_VERSION: u8 = 1;

/// The resolution as written: borrowed from the state.
#[derive(Serialize)]
struct KeptRef<'a> {
    summaries: u8,
    model: u64,
    files: Vec<(&'a str, u64)>,
    modules: &'a [Vec<ModuleTarget>],
    exports: &'a ExportTables,
    clauses: &'a [Vec<Clause>],
}

/// The resolution as read back.
#[derive(Deserialize)]
pub(crate) struct Kept {
    summaries: u8,
    model: u64,
    /// Every file id's path ("" for a removed file) and content hash.
    pub(crate) files: Vec<(String, u64)>,
    pub(crate) modules: Vec<Vec<ModuleTarget>>,
    pub(crate) exports: ExportTables,
    pub(crate) clauses: Vec<Vec<Clause>>,
}

/// The metadata entry keeping `state`'s resolution.
pub(crate) fn resolution_meta(state: &IndexState) -> (String, Vec<u8>) {
    let parts = state.resolution_parts();
    let kept = KeptRef {
        summaries: crate::persist::SUMMARY_VERSION,
        model: state.model().fingerprint(),
        files: parts.files,
        modules: parts.modules,
        exports: parts.exports,
        clauses: parts.clauses,
    };
    let raw = postcard::to_stdvec(&kept).unwrap_or_default();
    let mut bytes = Vec::with_capacity(raw.len() / 3 + 8);
    bytes.push(RESOLUTION_VERSION);
    bytes.extend_from_slice(&lz4_flex::block::compress_prepend_size(&raw));
    (RESOLUTION_META_KEY.to_owned(), bytes)
}

/// The kept resolution of `bytes`, or `None` for another version or damaged bytes.
fn decode(bytes: &[u8]) -> Option<Kept> {
    let (version, compressed) = bytes.split_first()?;
    if *version != RESOLUTION_VERSION {
        return None;
    }
    let (size, block) = lz4_flex::block::uncompressed_size(compressed).ok()?;
    // LZ4 expands a byte to at most 255: a larger size is damage.
    if size > block.len().saturating_mul(255) {
        return None;
    }
    let raw = lz4_flex::block::decompress(block, size).ok()?;
    let kept: Kept = postcard::from_bytes(&raw).ok()?;
    (kept.summaries == crate::persist::SUMMARY_VERSION).then_some(kept)
}

/// Whether `kept` was computed from exactly the stored summaries (`stored`: path → hash,
/// size, modified) under `model`, and is whole (a list per file).
fn matches(kept: &Kept, stored: &HashMap<String, (u64, u64, u64)>, model: &ProjectModel) -> bool {
    let files = kept.files.len();
    let present = kept.files.iter().filter(|(path, _)| !path.is_empty());
    kept.model == model.fingerprint()
        && kept.modules.len() == files
        && kept.clauses.len() == files
        && kept.exports.len() == files
        && present.clone().count() == stored.len()
        && present
            .clone()
            .all(|(path, hash)| stored.get(path).is_some_and(|s| s.0 == *hash))
}

/// The state of the store's index with its kept resolution and no summary read yet, when the
/// store keeps one that matches its summaries (`stored`: path → hash, size, modified) and
/// `model`; otherwise `model` back. Its summaries are read from the store attached for each
/// update ([`IndexState::attach_store`]).
pub(crate) fn resume(
    root: &Path,
    snapshot: &Snapshot,
    stored: &HashMap<String, (u64, u64, u64)>,
    model: ProjectModel,
) -> Result<Result<IndexState, ProjectModel>, IndexError> {
    let Some(kept) = snapshot
        .meta(RESOLUTION_META_KEY)?
        .as_deref()
        .and_then(decode)
        .filter(|kept| matches(kept, stored, &model))
    else {
        return Ok(Err(model));
    };
    let mut state = IndexState::resumed(root, model, kept)?;
    state.generation = Some(snapshot.generation()?);
    Ok(Ok(state))
}

/// Summaries read from a snapshot of the store, as [`crate::sync`] reads them.
pub(crate) struct StoredSummaries {
    /// Locked while a summary's bytes are read: a snapshot's tables open lazily.
    snapshot: parking_lot::Mutex<Snapshot>,
    root: PathBuf,
}

impl StoredSummaries {
    pub(crate) fn new(snapshot: Snapshot, root: &Path) -> StoredSummaries {
        StoredSummaries {
            snapshot: parking_lot::Mutex::new(snapshot),
            root: root.to_path_buf(),
        }
    }
}

impl SummarySource for StoredSummaries {
    fn load_uses(&self, path: &str, hash: u64) -> Option<ImportUses> {
        // Read against the stored summary's hash: another's is not this file's.
        let bytes = self
            .snapshot
            .lock()
            .read_blob(path, <[u8]>::to_vec)
            .ok()??;
        crate::persist::decode_uses(&bytes).filter(|uses| uses.hash == hash)
    }

    fn load(&self, path: &str, hash: u64) -> Result<(FileFacts, bool), IndexError> {
        // Only the read holds the lock: two threads decode at once ([`FactsTable::read_ahead`]).
        let bytes = self.snapshot.lock().read_blob(path, <[u8]>::to_vec)?;
        let decoded = bytes.and_then(|bytes| crate::persist::decode_with(&bytes, &mut Vec::new()));
        if let Some(facts) = decoded.filter(|facts| facts.hash == hash) {
            return Ok((facts, true));
        }
        // Not readable: made again from disk, as a whole restore does, with its modification
        // time unknown (0), so the next sync reads the file again.
        let snapshot = self.snapshot.lock();
        crate::sync::read_summary(&snapshot, &self.root, path, (hash, 0))
    }
}
