//! Resuming an index state in a new process without decoding every summary.
//!
//! What resolution computes over the whole project (every file's resolved imports, export
//! tables and heritage clauses) is kept in the store beside the summaries it came from,
//! written in the same transaction as every sync's update ([`resolution_meta`]; an editor's
//! edit leaves it behind, see `sync::Writer::Edit`). A new process
//! reads it back ([`resume`]) and reads a file's summary only when the update asks for it
//! ([`FactsTable`]): an edit reaches the summaries of the files it links and of what their
//! names resolve into. Decoding every summary was most of a one-file `tsgraph index`.
//!
//! The kept tables are trusted only for the summaries they were computed from: they name
//! every file's path and content hash, and a set that differs from the store's stamps (or a
//! project model with another fingerprint) is not resumed; the state is then restored from
//! every summary, as before.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use tsgraph_engine::Snapshot;
use xxhash_rust::xxh3::xxh3_64;

use crate::facts::FileFacts;
#[cfg(doc)]
use crate::facts_table::FactsTable;
use crate::facts_table::SummarySource;
use crate::import_uses::ImportUses;
use crate::model::ProjectModel;
use crate::reach_key::ReachKey;
use crate::resolve::{Clause, ExportTables, FileId, KeptExports, ModuleTarget};
use crate::state::{IndexState, Prepared};
use crate::summary::IndexError;
use crate::sync::Stamps;

/// The metadata key of the kept resolution.
pub(crate) const RESOLUTION_META_KEY: &str = "resolution";

/// The format version of the kept resolution (the summaries' is inside it: the ids it holds
/// are theirs): another version is not resumed. Version 2 keeps the export tables in a
/// section of their own ([`crate::resolve::KeptExports`]); version 3 adds every file's
/// reach key ([`crate::reach_key`]); version 4 frames the keys as the export tables are
/// framed (`crate::frames`).
const RESOLUTION_VERSION: u8 = 4;

/// The resolution as written: borrowed from the state ([`IndexState::kept_resolution`]);
/// the fields of [`Kept`], in its order.
#[derive(Serialize)]
pub(crate) struct KeptRef<'a> {
    pub(crate) summaries: u8,
    pub(crate) model: u64,
    pub(crate) builtins: &'a FileFacts,
    pub(crate) files: Vec<(&'a str, u64)>,
    pub(crate) modules: &'a [Vec<ModuleTarget>],
    pub(crate) stars: &'a [Vec<FileId>],
    pub(crate) clauses: &'a [Vec<Clause>],
}

/// The resolution as read back.
#[derive(Deserialize)]
pub(crate) struct Kept {
    summaries: u8,
    model: u64,
    /// The built-in library's summary (a summary like any other: its version is the
    /// summaries').
    pub(crate) builtins: FileFacts,
    /// Every file id's path ("" for a removed file) and content hash.
    pub(crate) files: Vec<(String, u64)>,
    pub(crate) modules: Vec<Vec<ModuleTarget>>,
    /// Every file's `export *` sources (the export tables are kept apart: see
    /// [`resolution_meta`]).
    stars: Vec<Vec<FileId>>,
    pub(crate) clauses: Vec<Vec<Clause>>,
    /// Every file's reach key (a section of its own: see [`resolution_meta`]).
    #[serde(skip)]
    pub(crate) reach: Vec<ReachKey>,
}

/// The metadata entry keeping `state`'s resolution: the version, a checksum of what
/// follows, then three parts: the head (the resolution but its reach keys and export tables:
/// postcard, LZ4-compressed) and the reach keys ([`crate::reach_key::encode_keys`]), each
/// after its length (u32 LE), then the export tables' section, whose chunks are compressed
/// on their own so that a chunk no edit changed is written back as it was read. The section
/// becomes the state's kept form of its tables.
pub(crate) fn resolution_meta(state: &mut IndexState) -> (String, Vec<u8>) {
    let raw = postcard::to_stdvec(&state.kept_resolution()).unwrap_or_default();
    let head = lz4_flex::block::compress_prepend_size(&raw);
    let keys = crate::reach_key::encode_keys(state.reach_keys());
    let section = state.keep_exports();
    let mut bytes = Vec::with_capacity(17 + head.len() + keys.len() + section.len());
    bytes.push(RESOLUTION_VERSION);
    bytes.extend_from_slice(&[0; 8]);
    for part in [&head, &keys] {
        bytes.extend_from_slice(&u32::try_from(part.len()).unwrap_or(u32::MAX).to_le_bytes());
        bytes.extend_from_slice(part);
    }
    bytes.extend_from_slice(&section);
    let checksum = xxh3_64(&bytes[9..]);
    bytes[1..9].copy_from_slice(&checksum.to_le_bytes());
    (RESOLUTION_META_KEY.to_owned(), bytes)
}

/// The part of `bytes` after its length (u32 LE), and what follows it.
fn split_part(bytes: &[u8]) -> Option<(&[u8], &[u8])> {
    let (len, rest) = bytes.split_first_chunk::<4>()?;
    rest.split_at_checked(usize::try_from(u32::from_le_bytes(*len)).ok()?)
}

/// The kept resolution of `bytes` and its export tables' section, or `None` for another
/// version or damaged bytes (the checksum is checked before anything is decompressed).
fn decode(bytes: &[u8]) -> Option<(Kept, KeptExports)> {
    let (version, rest) = bytes.split_first()?;
    let (checksum, rest) = rest.split_first_chunk::<8>()?;
    if *version != RESOLUTION_VERSION || u64::from_le_bytes(*checksum) != xxh3_64(rest) {
        return None;
    }
    let (head, rest) = split_part(rest)?;
    let (keys, section) = split_part(rest)?;
    let mut kept: Kept =
        postcard::from_bytes(crate::persist::decompress(head, &mut Vec::new())?).ok()?;
    kept.reach = crate::reach_key::decode_keys(keys)?;
    let exports = KeptExports::parse(section)?;
    (kept.summaries == crate::persist::SUMMARY_VERSION).then_some((kept, exports))
}

/// Whether `kept` was computed from exactly the stored summaries (`stored`: path → hash,
/// size, modified), and is whole (a list per file).
fn matches((kept, exports): &(Kept, KeptExports), stored: &Stamps) -> bool {
    let files = kept.files.len();
    let present = kept.files.iter().filter(|(path, _)| !path.is_empty());
    let distinct: rustc_hash::FxHashSet<&str> =
        present.clone().map(|(path, _)| path.as_str()).collect();
    kept.modules.len() == files
        && kept.clauses.len() == files
        && kept.stars.len() == files
        && kept.reach.len() == files
        && exports.files() == files
        && distinct.len() == stored.len()
        && present.clone().count() == stored.len()
        && present
            .clone()
            .all(|(path, hash)| stored.get(path).is_some_and(|s| s.0 == *hash))
}

/// The state of the store's index with its kept resolution and no summary read yet, when
/// `prepared` (what [`prepare`] made of the resolution the store keeps) was computed under
/// `model`; otherwise `model` back. Its summaries are read from the store attached for each
/// operation ([`IndexState::reading_from`]).
pub(crate) fn resume(
    root: &Path,
    snapshot: &Snapshot,
    model: ProjectModel,
    prepared: Option<(u64, Prepared)>,
) -> Result<Result<IndexState, ProjectModel>, IndexError> {
    let Some((_, prepared)) = prepared.filter(|(kept_model, _)| *kept_model == model.fingerprint())
    else {
        return Ok(Err(model));
    };
    let mut state = IndexState::with_parts(root, model, prepared);
    state.generation = Some(snapshot.generation()?);
    Ok(Ok(state))
}

/// The resolution `snapshot` keeps made ready to become a state, with the fingerprint of the
/// project model it was computed under, when it was computed from exactly the stored
/// summaries (`stored`: path → hash, size, modified); `None` when the store keeps none that
/// does, or one of another version or damaged.
pub(crate) fn prepare(
    snapshot: &Snapshot,
    stored: &Stamps,
) -> Result<Option<(u64, Prepared)>, IndexError> {
    let kept = snapshot
        .meta(RESOLUTION_META_KEY)?
        .as_deref()
        .and_then(decode);
    let Some((mut kept, exports)) = kept.filter(|kept| matches(kept, stored)) else {
        return Ok(None);
    };
    let Some(exports) = ExportTables::resumed(std::mem::take(&mut kept.stars), exports) else {
        return Ok(None);
    };
    let model = kept.model;
    Ok(Some((model, IndexState::prepare_resumed(kept, exports)?)))
}

/// Summaries read from a snapshot of the store, as [`crate::sync`] reads them.
pub(crate) struct StoredSummaries {
    /// Read by two threads at once ([`FactsTable::read_uses_ahead`]): a snapshot's reads
    /// share it (its tables open once, whichever thread asks first).
    snapshot: Snapshot,
    root: PathBuf,
}

impl StoredSummaries {
    pub(crate) fn new(snapshot: Snapshot, root: &Path) -> StoredSummaries {
        StoredSummaries {
            snapshot,
            root: root.to_path_buf(),
        }
    }
}

impl SummarySource for StoredSummaries {
    fn load_uses(&self, path: &str, hash: u64) -> Option<ImportUses> {
        // Only that part is copied out of the page, and decompressed after it. Read against
        // the stored summary's hash: another's is not this file's.
        let part = (self.snapshot)
            .read_blob(path, |bytes| {
                crate::persist::uses_part(bytes).map(<[u8]>::to_vec)
            })
            .ok()??;
        crate::persist::decode_uses_part(&part?).filter(|uses| uses.hash == hash)
    }

    fn load(&self, path: &str, hash: u64) -> Result<(FileFacts, bool), IndexError> {
        // Copied out of the page, then decoded: the page is held no longer than the copy.
        let bytes = self.snapshot.read_blob(path, <[u8]>::to_vec)?;
        let decoded = bytes.and_then(|bytes| crate::persist::decode_with(&bytes, &mut Vec::new()));
        if let Some(facts) = decoded.filter(|facts| facts.hash == hash) {
            return Ok((facts, true));
        }
        // Not readable: made again from disk, as a whole restore does, with its modification
        // time unknown (0), so the next sync reads the file again.
        let facts =
            crate::sync::summary_from_disk(&self.root, path, (hash, 0), &mut Default::default())?;
        Ok((facts, false))
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use tsgraph_engine::{Snapshot, Store};

    use crate::{IndexOptions, index_project, sync_project};

    /// Every node ID and edge (source, kind, target), sorted: what two stores must agree on.
    fn graph(snapshot: &Snapshot) -> Vec<String> {
        let id = |key| {
            let node = snapshot.node(key).expect("read").expect("node");
            node.view().expect("view").id().to_owned()
        };
        let mut out = Vec::new();
        for key in snapshot.node_keys().expect("keys") {
            out.push(id(key));
            for edge in snapshot
                .out_edges(key)
                .expect("out")
                .edges()
                .expect("edges")
            {
                out.push(format!(
                    "{} -{}-> {}",
                    id(key),
                    edge.kind(),
                    id(edge.other())
                ));
            }
        }
        out.sort();
        out
    }

    fn write(root: &Path, path: &str, text: &str) {
        std::fs::write(root.join(path), text).expect("write");
    }

    /// A resumed state whose update needs a summary the store cannot give back (damaged
    /// bytes): the update is made again from every summary, and the store ends as a fresh
    /// index of the same files.
    #[test]
    fn an_update_that_cannot_read_a_summary_it_needs_is_made_from_every_summary() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path().join("project");
        std::fs::create_dir_all(&root).expect("folder");
        write(
            &root,
            "b.ts",
            "export class B { run(): number { return 1; } }\n",
        );
        write(
            &root,
            "a.ts",
            "import { B } from './b';\nexport function a() { return new B(); }\n",
        );
        write(&root, "c.ts", "export const c = 3;\n");
        let options = IndexOptions {
            threads: 1,
            ..IndexOptions::default()
        };
        let store = Store::open_or_create(dir.path().join("kept.redb")).expect("store");
        index_project(&root, &store, &options).expect("index");
        // b.ts's stored summary is damaged; its stamps, and the kept resolution, still match.
        let snapshot = store.snapshot().expect("snapshot");
        let whole = crate::sync::restore_stored(&root, &snapshot, false, Default::default())
            .expect("state");
        drop(snapshot);
        let mut batch = whole.link_everything();
        batch.blobs = vec![(
            "b.ts".to_owned(),
            vec![crate::persist::SUMMARY_VERSION, 9, 9],
        )];
        store.replace_files(&batch, &[]).expect("damage");
        // Linking a.ts's new call reads b.ts's summary (B's members).
        write(
            &root,
            "a.ts",
            "import { B } from './b';\nexport function a() { return new B().run(); }\n",
        );
        let synced = sync_project(&root, &store, &options).expect("sync");
        assert_eq!(synced.changed, ["a.ts"]);
        assert!(
            synced.summaries_read >= 3,
            "read every summary: {}",
            synced.summaries_read
        );
        let fresh = Store::open_or_create(dir.path().join("fresh.redb")).expect("store");
        index_project(&root, &fresh, &options).expect("fresh index");
        let (synced, expected) = (
            graph(&store.snapshot().expect("snapshot")),
            graph(&fresh.snapshot().expect("snapshot")),
        );
        assert!(
            expected
                .iter()
                .any(|line| line.contains("a.ts:a -CALLS-> b.ts:B.run")),
            "{expected:#?}"
        );
        assert_eq!(synced, expected);
    }
}
