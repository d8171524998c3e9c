//! The data model and the redb graph store of tsgraph.
//!
//! This crate knows nodes, edges and how they are stored; it knows nothing of TypeScript,
//! tree-sitter or output formats. Writers hand it a [`GraphBatch`] (records addressed by their
//! public string IDs); readers open a [`Snapshot`] and walk adjacency lists zero-copy.
//!
//! ```
//! use tsgraph_engine::{EdgeKind, EdgeSpec, GraphBatch, NodeKind, NodeRecord, Store};
//!
//! let dir = tempfile::tempdir().unwrap();
//! let store = Store::open_or_create(dir.path().join("graph.redb")).unwrap();
//! let mut batch = GraphBatch::default();
//! batch.add_file("src/a.ts", 0xabcd);
//! batch.nodes.push(NodeRecord::new("src/a.ts", NodeKind::File, "a.ts", "src/a.ts", 1, 3));
//! batch.nodes.push(NodeRecord::new("src/a.ts:main", NodeKind::Function, "main", "src/a.ts", 1, 3));
//! batch.edges.push(EdgeSpec::new("src/a.ts", "src/a.ts:main", EdgeKind::Contains));
//! store.replace_all(&batch).unwrap();
//!
//! let snapshot = store.snapshot().unwrap();
//! let key = snapshot.key_of("src/a.ts:main").unwrap().unwrap();
//! let node = snapshot.node(key).unwrap().unwrap();
//! assert_eq!(node.view().unwrap().name(), "main");
//! ```

mod delta;
mod error;
mod model;
mod record;
mod store;

pub use delta::GraphDelta;
pub use error::StoreError;
/// The FST library the search index is built with (its automata select terms).
pub use fst;
pub use model::{EdgeKind, NodeKey, NodeKind, Resolution, UseContext, Visibility};
pub use record::{
    EdgeEntry, EdgeFacts, EdgeSpec, FileEntry, GraphBatch, NodeFlags, NodeRecord, NodeView,
    UnresolvedCall,
};
#[doc(hidden)]
pub use store::reseal_graph_file;
pub use store::{
    AdjacencyGuard, BuiltGraphFile, EdgeRef, EdgeView, FileStamp, Generation, LoadedFile, Loader,
    NodeGuard, OVERLAY_BOUND, Prefetch, SCHEMA_VERSION, Snapshot, Step, Steps, Store, StoreStats,
    TableSpace, TermSet, TermsKeys, word_count, word_term, words,
};
