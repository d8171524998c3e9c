//! tsgraph: an embedded code-graph database for TypeScript and JavaScript.
//!
//! This crate is the facade the front ends (the `tsgraph-cli` crate's command line and MCP
//! server), IDE plugins and servers use: it opens a
//! project's store, indexes the project, resolves symbols and runs queries whose results are
//! encoded straight into a writer. The layers below are re-exported for finer control.
//!
//! ```
//! use tsgraph::{Format, Project, QueryRequest, SymbolArg};
//!
//! let dir = tempfile::tempdir().unwrap();
//! std::fs::write(dir.path().join("a.ts"), "export function main() { helper(); }\nfunction helper() {}\n").unwrap();
//! let project = Project::open(dir.path(), None).unwrap();
//! project.index(&Default::default()).unwrap();
//!
//! let mut out = Vec::new();
//! let request = QueryRequest::Callers { symbol: SymbolArg::new("helper"), options: Default::default() };
//! project.query(&request, Format::Json, &mut out).unwrap();
//! assert!(String::from_utf8(out).unwrap().contains("\"id\":\"a.ts:main\""));
//! ```

mod allocator;
pub mod args;
pub mod changes;
mod diff;
mod error;
mod live;
pub mod navigate;
mod project;
mod request;
mod snippets;
mod watch;

pub use allocator::tune_allocator;
pub use error::{EXIT_ERROR, EXIT_SYMBOL, EXIT_USAGE, Error};
pub use live::LiveProject;
pub use project::{Project, STORE_DIR, STORE_FILE, WRITER_WAIT, discover_root};
pub use request::{
    CLI_MAX_TOKENS, DiffSpec, ExportFormat, Format, MCP_MAX_TOKENS, Output, QueryRequest, SymbolArg,
};
pub use snippets::is_relative_inside;
pub use tsgraph_encoders as encoders;
pub use tsgraph_engine as engine;
pub use tsgraph_indexer as indexer;
pub use tsgraph_indexer::{EditOutcome, IndexOptions, IndexSummary, SyncSummary, TextEdit};
pub use tsgraph_query as query;
pub use tsgraph_query::{
    DepsDirection, Direction, EdgeKinds, NeighborOptions, PathOptions, SearchOptions, Summary,
    SymbolMatch, TraversalOptions,
};
pub use watch::{WATCH_DEBOUNCE, WatchUpdate, Watcher, watch};
