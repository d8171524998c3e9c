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

mod extract;
mod facts;
mod graph;
mod interface;
pub mod model;
mod modules;
mod options;
mod persist;
mod pool;
mod resolve;
mod summary;
mod syntax;
mod walk;

use std::path::Path;
use std::time::Instant;

use tsgraph_engine::{EdgeKind, Store};

pub use extract::syntax_errors;
pub use modules::UnresolvedImport;
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
    let mut extractor =
        extract::Extractor::new().map_err(|err| IndexError::Grammar(err.to_string()))?;
    let builtins = resolve::builtin_facts(&mut extractor);
    let files = &parsed.facts;
    let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
    let model = model::ProjectModel::load(root, &paths);
    warnings.extend(model.warnings().iter().map(|w| w.to_string()));
    let (modules, import_stats) = modules::resolve_imports(&model, files);
    let package_of = |path: &str| {
        let package = model.package_of(path);
        (package.module.to_owned(), package.name.to_owned())
    };
    let nodes: Vec<graph::FileNodes> = files.iter().map(graph::assign_nodes).collect();
    let linked = graph::link(
        files,
        &builtins,
        &modules,
        &nodes,
        &package_of,
        graph::Scope::All,
    );
    let mut batch = linked.batch;
    let link_stats = linked.stats;
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
        error_files: error_files(facts),
        imports_by_outcome: import_stats.by_outcome.into_iter().collect(),
        unresolved_imports: import_stats.unresolved,
        nodes: batch.nodes.len(),
        edges: batch.edges.len(),
        edges_by_kind,
        resolved_calls: link_stats.resolved_calls,
        unresolved_calls: link_stats.unresolved_calls,
        unresolved_by_reason: link_stats
            .unresolved_by_reason
            .iter()
            .map(|(reason, count)| ((*reason).to_owned(), *count))
            .collect(),
        skipped_too_large: walked.too_large,
        warnings,
        parse_time,
        total_time: started.elapsed(),
    })
}

/// The files with parse errors, most error bytes first (ties by path).
fn error_files(facts: &[facts::FileFacts]) -> Vec<(String, u64, u64)> {
    let mut files: Vec<(String, u64, u64)> = facts
        .iter()
        .filter(|f| f.error_bytes > 0)
        .map(|f| (f.path.clone(), f.error_bytes, f.bytes))
        .collect();
    files.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    files
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
