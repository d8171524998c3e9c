//! The push contract between queries and encoders.
//!
//! A query calls [`ResultSink::begin`] once with the result's [`Header`] (its shape and
//! counts, so table headers can be written before rows), then [`ResultSink::node`] for every
//! node in position order, then [`ResultSink::edge`] for every edge (path order for paths,
//! position order otherwise), then [`ResultSink::finish`]. Node records are lent zero-copy
//! from the snapshot for the duration of one call; a sink that needs them later must copy.

use std::io;

use tsgraph_engine::{EdgeKind, EdgeRef, NodeView};

/// Which question a result answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueryKind {
    /// Transitive callers.
    Callers,
    /// Transitive callees.
    Callees,
    /// Transitive dependents over every dependency edge kind.
    Impact,
    /// A shortest path.
    Path,
    /// Everything within a distance.
    Neighbors,
    /// Every node and edge of the graph.
    Export,
}

impl QueryKind {
    /// The name used in outputs.
    pub const fn as_str(self) -> &'static str {
        match self {
            QueryKind::Callers => "callers",
            QueryKind::Callees => "callees",
            QueryKind::Impact => "impact",
            QueryKind::Path => "path",
            QueryKind::Neighbors => "neighbors",
            QueryKind::Export => "export",
        }
    }
}

/// Which adjacency a traversal follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Direction {
    /// Incoming edges (who points at me).
    In,
    /// Outgoing edges (what I point at).
    Out,
    /// Both.
    #[default]
    Both,
}

impl Direction {
    /// The name used in outputs and on the command line.
    pub const fn as_str(self) -> &'static str {
        match self {
            Direction::In => "in",
            Direction::Out => "out",
            Direction::Both => "both",
        }
    }
}

/// The shape of a result, given before any node.
#[derive(Debug, Clone, Copy)]
pub struct Header<'a> {
    /// The question.
    pub kind: QueryKind,
    /// The symbol asked about (the path's start); `None` for an export.
    pub root: Option<NodeView<'a>>,
    /// The path's end.
    pub target: Option<NodeView<'a>>,
    /// `max_depth` (callers, callees, impact), `distance` (neighbors), or the path's search
    /// depth.
    pub depth: u32,
    /// Neighbors: the direction followed.
    pub direction: Direction,
    /// How many nodes will follow (the root excluded, except for paths and neighbors, where
    /// the root is the first node).
    pub nodes: usize,
    /// How many edges will follow.
    pub edges: usize,
    /// The package every result node shares, if they share one (encoders hoist it).
    pub package: Option<&'a str>,
    /// The module every result node shares, if they share one.
    pub module: Option<&'a str>,
}

/// What a query knows about one result node beyond its record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NodeInfo {
    /// Hops from the root (0 for the root itself).
    pub depth: u32,
    /// The kind of the edge by which it was first reached (impact), if any.
    pub via: Option<EdgeKind>,
}

/// One edge of a result.
#[derive(Clone, Copy)]
pub struct EdgeInfo<'a> {
    /// The kind.
    pub kind: EdgeKind,
    /// The source node's ID.
    pub source: &'a str,
    /// The target node's ID.
    pub target: &'a str,
    /// CALLS: call sites (0 when unknown).
    pub count: u32,
    /// The stored edge with all its facts, where the query read one (neighbors, export).
    pub stored: Option<EdgeRef<'a>>,
}

/// How a result ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Summary {
    /// The traversal stopped at its node limit; more results exist.
    pub truncated: bool,
    /// The node limit that applied.
    pub limit: usize,
    /// Paths: whether a path was found.
    pub found: bool,
}

/// Receives a query result. Every method may fail with an I/O error, which aborts the query.
pub trait ResultSink {
    /// The result's shape and counts; called once, first.
    fn begin(&mut self, header: &Header<'_>) -> io::Result<()>;
    /// One node, in position order (path order for paths).
    fn node(&mut self, node: &NodeView<'_>, info: &NodeInfo) -> io::Result<()>;
    /// One edge, after all nodes: path order for paths, otherwise sorted by the source's
    /// position, then edge kind, then the target's position.
    fn edge(&mut self, edge: &EdgeInfo<'_>) -> io::Result<()>;
    /// The end; called once, last.
    fn finish(&mut self, summary: &Summary) -> io::Result<()>;
}
