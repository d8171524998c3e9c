//! Bounded graph queries over a tsgraph store snapshot: callers, callees, impact, path,
//! neighbors, search, file symbols and package dependencies. Queries push their results into a [`ResultSink`] in position order; they never
//! build an output tree.
//!
//! ```
//! use tsgraph_engine::{EdgeKind, EdgeSpec, GraphBatch, NodeKind, NodeRecord, Store};
//! use tsgraph_query::{Query, TraversalOptions, CollectSink, resolve_symbol, SymbolMatch};
//!
//! let dir = tempfile::tempdir().unwrap();
//! let store = Store::open_or_create(dir.path().join("g.redb")).unwrap();
//! let mut batch = GraphBatch::default();
//! batch.add_file("a.ts", 0);
//! batch.nodes.push(NodeRecord::new("a.ts", NodeKind::File, "a.ts", "a.ts", 1, 9));
//! batch.nodes.push(NodeRecord::new("a.ts:main", NodeKind::Function, "main", "a.ts", 1, 3));
//! batch.nodes.push(NodeRecord::new("a.ts:run", NodeKind::Function, "run", "a.ts", 5, 9));
//! batch.edges.push(EdgeSpec::new("a.ts:main", "a.ts:run", EdgeKind::Calls));
//! store.replace_all(&batch).unwrap();
//!
//! let snapshot = store.snapshot().unwrap();
//! let SymbolMatch::Found(run) = resolve_symbol(&snapshot, "run", None).unwrap() else { panic!() };
//! let mut sink = CollectSink::default();
//! Query::new(&snapshot).callers(run, &TraversalOptions::default(), &mut sink).unwrap();
//! assert_eq!(sink.nodes, vec![("a.ts:main".to_owned(), 1)]);
//! ```

mod barrel;
mod change;
mod collect;
mod context;
mod deps;
mod emit;
mod error;
mod export;
mod filter;
mod header;
mod kinds;
mod order;
mod path;
mod plan;
mod search;
mod sink;
mod symbol;
mod symbols;
mod topic;
mod traverse;

pub use change::{Change, ChangeKind, ChangedSymbol, NAMED_AT_LISTED, NamedAt, RemovedSymbol};
pub use collect::CollectSink;
pub use context::QueryContext;
pub use deps::{DepsDirection, DepsOptions, LISTED_IMPORTS};
pub use emit::has_signature;
pub use error::QueryError;
pub use header::{
    ChangeQuestion, Counts, DepsQuestion, EdgeCounts, Facets, FileCount, Header, Listing,
    PathQuestion, Question, SearchPage, Shape, Traversal, UnresolvedSite, Walk,
};
pub use kinds::EdgeKinds;
pub use path::PathOptions;
pub use plan::{Explain, Plan, Strategy};
pub use search::{SearchError, SearchOptions};
pub use sink::{
    Answer, Budget, Dependency, DependencyImport, Direction, EdgeInfo, Group, GroupLevel, Grouping,
    MatchKind, NodeInfo, QueryKind, ResultSink, SinkError, Stop, Summary, UNRESOLVED_LISTED, Via,
};
pub use symbol::{Candidate, SymbolMatch, resolve_symbol};
pub use symbols::{FileMatch, resolve_file};
pub use traverse::{CANDIDATES_LISTED, NeighborOptions, TraversalOptions};
pub use tsgraph_engine as engine;

use tsgraph_engine::Snapshot;

/// The query entry point: borrows a snapshot and runs bounded traversals over it.
pub struct Query<'s> {
    snapshot: &'s Snapshot,
    context: Context<'s>,
}

/// The scratch a query uses: its own, or one lent to it for reuse.
enum Context<'s> {
    Own(Box<QueryContext>),
    Lent(&'s QueryContext),
}

impl<'s> Query<'s> {
    /// Queries over `snapshot`, with scratch of their own.
    pub fn new(snapshot: &'s Snapshot) -> Query<'s> {
        Query {
            snapshot,
            context: Context::Own(Box::default()),
        }
    }

    /// Queries over `snapshot` that reuse `context`'s scratch: a query run again with the
    /// same context allocates a small, fixed number of times, whatever its answer's size.
    pub fn with_context(snapshot: &'s Snapshot, context: &'s QueryContext) -> Query<'s> {
        Query {
            snapshot,
            context: Context::Lent(context),
        }
    }

    /// The scratch these queries reuse.
    pub(crate) fn context(&self) -> &QueryContext {
        match &self.context {
            Context::Own(own) => own,
            Context::Lent(lent) => lent,
        }
    }

    /// The snapshot queried.
    pub fn snapshot(&self) -> &'s Snapshot {
        self.snapshot
    }
}
