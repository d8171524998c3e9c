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

mod decode;
mod extract;
mod facts;
mod link;
mod options;
mod package;
mod pool;
mod resolve;
mod summary;
mod walk;

use std::path::Path;
use std::time::Instant;

use tsgraph_engine::{EdgeKind, GraphBatch, Store};

pub use options::IndexOptions;
pub use summary::{IndexError, IndexSummary, ParseSummary};

/// The metadata key that marks a store as fully indexed (see [`is_indexed`]).
pub const INDEXED_META_KEY: &str = "indexed";

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
    let started = Instant::now();
    let walked = walk::walk(root, options.max_file_size);
    let mut warnings: Vec<String> = walked.errors;
    for (path, size) in &walked.too_large {
        warnings.push(format!(
            "{path}: skipped, {size} bytes is over the {} byte limit",
            options.max_file_size
        ));
    }
    let parsed = pool::extract_all(&walked.files, options.threads)?;
    warnings.extend(parsed.warnings);
    let parse_time = started.elapsed();
    let (mut batch, link_stats) = link::link(root, &parsed.facts);
    // Committed with the graph, so a store carries the marker exactly when an index of it
    // completed (an empty store, or one whose first index failed, does not).
    batch.meta.push((
        "project_root".to_owned(),
        root.to_string_lossy().as_bytes().to_vec(),
    ));
    batch
        .meta
        .push((INDEXED_META_KEY.to_owned(), b"1".to_vec()));
    let mut edges_by_kind: Vec<(EdgeKind, usize)> = EdgeKind::ALL.iter().map(|k| (*k, 0)).collect();
    for edge in &batch.edges {
        if let Some(slot) = edges_by_kind.iter_mut().find(|(k, _)| *k == edge.kind) {
            slot.1 += 1;
        }
    }
    store.replace_all(&batch)?;
    let facts = &parsed.facts;
    Ok(IndexSummary {
        files: facts.len(),
        lines: facts.iter().map(|f| u64::from(f.lines)).sum(),
        bytes: facts.iter().map(|f| f.bytes).sum(),
        error_bytes: facts.iter().map(|f| f.error_bytes).sum(),
        nodes: batch.nodes.len(),
        edges: batch.edges.len(),
        edges_by_kind,
        resolved_calls: link_stats.resolved_calls,
        unresolved_calls: link_stats.unresolved_calls,
        skipped_too_large: walked.too_large,
        warnings,
        parse_time,
        total_time: started.elapsed(),
    })
}

/// Indexes sources held in memory, without a file system or a store: each `(path, bytes)` is
/// decoded and extracted as [`index_project`] does with a file, then all are linked into one
/// batch. Paths are relative to the project root, with forward slashes, and distinct; the
/// project has no package.json. The fuzz targets drive extraction and linking through this.
pub fn index_sources(files: &[(&str, &[u8])]) -> Result<GraphBatch, IndexError> {
    let mut extractor =
        extract::Extractor::new().map_err(|err| IndexError::Grammar(err.to_string()))?;
    let mut facts: Vec<_> = files
        .iter()
        .map(|(path, bytes)| {
            let text = decode::decode(path, bytes).text;
            extractor.extract(path, &text, xxhash_rust::xxh3::xxh3_64(bytes))
        })
        .collect();
    facts.sort_by(|a, b| a.path.cmp(&b.path));
    // A root that does not exist: no package.json is found above any file.
    let (batch, _) = link::link(Path::new("/nonexistent/tsgraph-in-memory"), &facts);
    Ok(batch)
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
