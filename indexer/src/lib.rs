//! Indexing: walks a TypeScript/JavaScript project, parses every file with tree-sitter on a
//! pool of worker threads, links symbols across files and writes the graph into a
//! [`tsgraph_engine::Store`] in one transaction.
//!
//! ```no_run
//! use tsgraph_engine::Store;
//! use tsgraph_indexer::{IndexOptions, index_project};
//!
//! let store = Store::open_or_create("my-app/.tsgraph/graph.redb")?;
//! let summary = index_project("my-app".as_ref(), &store, &IndexOptions::default())?;
//! println!("{} files, {} nodes", summary.files, summary.nodes);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod chunks;
mod decode;
mod export_change;
mod extract;
mod facts;
mod facts_table;
mod frames;
mod graph;
mod import_uses;
mod interface;
mod live;
mod load;
pub mod model;
mod modules;
mod options;
mod persist;
mod pool;
mod reach;
mod reach_key;
mod relink;
mod resolve;
mod resume;
mod state;
mod summary;
mod sync;
mod syntax;
mod walk;
mod walk_listing;

use std::path::Path;
use std::time::Instant;

use tsgraph_engine::{GraphBatch, Store};

pub use extract::syntax_errors;
pub use live::{EditOutcome, LiveIndex, Position, TextEdit, TextRange};
pub use modules::UnresolvedImport;
pub use options::{IndexOptions, IndexProgress, ProgressHook};
pub use reach::ReachRule;
pub use relink::RelinkReason;
pub use state::{FileChange, IndexState, StoredGraph, Update};
pub use summary::{IndexError, IndexSummary, ParseSummary};
pub use sync::{SyncSummary, sync_project};
pub use walk::is_source_path;

/// The metadata key that marks a store as fully indexed (see [`is_indexed`]); it holds the
/// [`INDEXER_VERSION`] the index was made with and its summaries' version (see
/// `indexed_marker`).
pub const INDEXED_META_KEY: &str = "indexed";

/// The version of extraction and linking an index is made with. A store indexed by another
/// version is indexed again from scratch at its next sync, so that its graph is the one this
/// version gives the project (not old edges kept until their files change): bump it with
/// every change to the graph a project gives.
pub const INDEXER_VERSION: &[u8] = b"19";

/// What the [`INDEXED_META_KEY`] entry of an index made by this build holds: the
/// [`INDEXER_VERSION`] and the stored summaries' version. Summaries of another version
/// cannot be read back, and a sync that finds none readable re-links every file one by one
/// (slower than indexing afresh): a store whose summaries are of another version is indexed
/// again from scratch, as one made by another indexer version is.
pub(crate) fn indexed_marker() -> Vec<u8> {
    let mut marker = INDEXER_VERSION.to_vec();
    marker.extend_from_slice(format!(" summaries {}", persist::SUMMARY_VERSION).as_bytes());
    marker
}

/// Whether `store` holds a completed index (an empty store, or one whose first index failed
/// part-way, does not).
pub fn is_indexed(store: &Store) -> Result<bool, IndexError> {
    Ok(store.snapshot()?.meta(INDEXED_META_KEY)?.is_some())
}

/// Indexes the project under `root` into `store`, replacing whatever the store held.
///
/// Broken TypeScript is not an error: what parsed is kept and the share of bytes inside
/// ERROR nodes is reported. Unreadable files are skipped with a warning in the summary.
pub fn index_project(
    root: &Path,
    store: &Store,
    options: &IndexOptions,
) -> Result<IndexSummary, IndexError> {
    Ok(index_with_state(root, store, options)?.1)
}

/// [`index_project`], keeping the state for updates.
pub(crate) fn index_with_state(
    root: &Path,
    store: &Store,
    options: &IndexOptions,
) -> Result<(IndexState, IndexSummary), IndexError> {
    let (mut state, summary) = IndexState::build_into(root, store, options)?;
    store.write_graph_file()?;
    state.generation = Some(store.generation()?);
    Ok((state, summary))
}

/// The metadata a completed index commits with its graph, so a store carries the marker
/// exactly when an index of it completed (an empty store, or one whose first index failed,
/// does not).
pub(crate) fn indexed_meta(root: &Path) -> [(String, Vec<u8>); 2] {
    [
        (
            "project_root".to_owned(),
            root.to_string_lossy().as_bytes().to_vec(),
        ),
        (INDEXED_META_KEY.to_owned(), indexed_marker()),
    ]
}

/// Adds [`indexed_meta`] to a batch.
pub(crate) fn mark_indexed(batch: &mut GraphBatch, root: &Path) {
    batch.meta.extend(indexed_meta(root));
}

/// Indexes sources held in memory, without a file system or a store: each `(path, bytes)` is
/// decoded and extracted as [`index_project`] does with a file, then all are linked into one
/// batch. Paths are relative to the project root, with forward slashes, and distinct; the
/// project has no configuration files. The fuzz targets drive extraction and linking through
/// this.
pub fn index_sources(files: &[(&str, &[u8])]) -> Result<GraphBatch, IndexError> {
    let mut extractor =
        extract::Extractor::new().map_err(|err| IndexError::Grammar(err.to_string()))?;
    let facts: Vec<_> = files
        .iter()
        .map(|(path, bytes)| {
            pool::extract_one(
                &mut extractor,
                path,
                bytes,
                xxhash_rust::xxh3::xxh3_64(bytes),
            )
        })
        .collect();
    let paths: Vec<&str> = files.iter().map(|(path, _)| *path).collect();
    let model = model::ProjectModel::from_sources(&Default::default(), &paths);
    // A root that does not exist: nothing is read from a file system.
    let (state, _) =
        IndexState::with_model(Path::new("/nonexistent/tsgraph-in-memory"), facts, model)?;
    Ok(state.link_everything())
}

/// Whether `root` holds at least one file an index would read (walked as indexing walks
/// it: ignore files honoured, declaration files and vendored folders skipped). The CLI asks
/// before creating a store, so that a folder without sources gets an error and no store.
pub fn has_sources(root: &Path, options: &IndexOptions) -> bool {
    !walk::walk(root, options.max_file_size).files.is_empty()
}

/// Walks and parses the project without extracting anything: the baseline the benchmark
/// compares a full index against.
pub fn parse_project(root: &Path, options: &IndexOptions) -> Result<ParseSummary, IndexError> {
    let started = Instant::now();
    let walked = walk::walk(root, options.max_file_size);
    let (files, bytes) = pool::parse_all(&walked.files, options.threads)?;
    Ok(ParseSummary {
        files,
        bytes,
        time: started.elapsed(),
    })
}
