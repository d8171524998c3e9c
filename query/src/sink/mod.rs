//! The push contract between queries and encoders.
//!
//! A query first asks the sink how it wants nodes grouped ([`ResultSink::grouping`]), then
//! calls [`ResultSink::begin`] once with the result's [`Header`] (its shape, counts and the
//! facts every node shares, so that table headers can be written before rows), then, for each
//! group, [`ResultSink::group`] with the group's node count followed by its nodes
//! ([`ResultSink::node`]) and, for paths, its edges ([`ResultSink::edge`]); edges of a whole
//! result (neighbors, export) come after all nodes. [`ResultSink::finish`] comes last, also
//! after a sink asked to stop.
//!
//! Groups nest: a section (one method of a class, one of several paths) contains the
//! module, package, file or kind groups the sink asked for, each announced with its count.
//! Every node carries the node it was reached through (`via`) and the chain from the root, so
//! trees and groups render as they stream, without the sink buffering the result.
//!
//! Node records and edges are lent zero-copy from the snapshot for the duration of one call;
//! a sink that needs them later must copy. `node`, `group` and `edge` return whether to go
//! on: `Ok(false)` stops the query early (like ripgrep's `Sink::matched`), which then calls
//! `finish` with `stopped` set.

mod error;

use tsgraph_engine::{EdgeKind, EdgeView, NodeKind, NodeView};

pub use error::SinkError;

use crate::header::{Facets, Header, Listing};

/// How many unresolved call sites a callers answer lists at most (the count covers all).
pub const UNRESOLVED_LISTED: usize = 5;

/// Which question a result answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueryKind {
    /// Transitive callers.
    Callers,
    /// Transitive callees.
    Callees,
    /// Transitive dependents over every dependency edge kind.
    Impact,
    /// Shortest paths.
    Path,
    /// Everything within a distance.
    Neighbors,
    /// Symbols matching a pattern.
    Search,
    /// Every symbol of one file.
    FileSymbols,
    /// Every node and edge of the graph.
    Export,
    /// The packages a package depends on, or that depend on it.
    Deps,
    /// Everything that depends on the symbols a change touched (one section each), and
    /// the symbols it removed.
    ChangeImpact,
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
            QueryKind::Search => "search",
            QueryKind::FileSymbols => "file-symbols",
            QueryKind::Export => "export",
            QueryKind::Deps => "deps",
            QueryKind::ChangeImpact => "change-impact",
        }
    }

    /// Whether results are a traversal from the root (they carry depth and via).
    pub const fn is_traversal(self) -> bool {
        matches!(
            self,
            QueryKind::Callers
                | QueryKind::Callees
                | QueryKind::Impact
                | QueryKind::Neighbors
                | QueryKind::ChangeImpact
        )
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

/// How a sink wants the nodes of a section ordered and grouped. Paths keep path order
/// whatever the sink asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Grouping {
    /// No groups; position order (file, start line, ID), or rank order for search.
    #[default]
    None,
    /// By file, then by kind (hierarchical text).
    FileKind,
    /// By module, then package — each level only when the nodes do not all share it — then
    /// by kind (TOON).
    PackageKind,
}

/// What a group collects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupLevel {
    /// One section of a result: the callers of one method of a class (`node` is the method)
    /// or one of several paths (`index` is its rank, 0 = shortest).
    Section,
    /// Nodes of one module.
    Module,
    /// Nodes of one package.
    Package,
    /// Nodes of one file.
    File,
    /// Nodes of one kind.
    Kind,
}

/// A group of nodes, announced before its first node.
#[derive(Debug, Clone, Copy)]
pub struct Group<'a> {
    /// What the group collects.
    pub level: GroupLevel,
    /// The module, package or file path; the kind's name; the section's node ID (empty for
    /// a path).
    pub name: &'a str,
    /// Kind groups: the kind.
    pub kind: Option<NodeKind>,
    /// Sections of a class's methods: the method.
    pub node: Option<NodeView<'a>>,
    /// Path sections: the path's rank (0 = shortest).
    pub index: usize,
    /// Nodes in the group (nested groups included).
    pub nodes: usize,
    /// Callers sections: the unresolved call sites of the method's name (see
    /// [`crate::Counts::unresolved`]).
    pub unresolved: usize,
    /// Path sections: hops on the path (its edges, which follow its nodes).
    pub edges: usize,
    /// Change impact sections: how the section's symbol changed.
    pub change: Option<crate::ChangeKind>,
    /// The facts every node of the group shares (so a table can drop a column).
    pub facets: Facets,
}

/// An answer's token budget, and where a continued answer starts (see
/// [`ResultSink::budget`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Tokens the answer may take (an estimate of o200k tokens); `usize::MAX` for no bound.
    pub tokens: usize,
    /// Results to skip before the first listed: the `offset` of a previous answer's
    /// continuation hint.
    pub offset: usize,
    /// The commit generation the offset belongs to, when it came from a hint: an answer
    /// at another generation says its pages may not line up.
    pub generation: Option<u64>,
}

impl Budget {
    /// No bound, from the first result.
    pub const UNBOUNDED: Budget = Budget {
        tokens: usize::MAX,
        offset: 0,
        generation: None,
    };

    /// A bound of `tokens`, from the first result.
    pub const fn tokens(tokens: usize) -> Budget {
        Budget {
            tokens,
            offset: 0,
            generation: None,
        }
    }
}

/// The edge through which a node was reached.
#[derive(Clone, Copy)]
pub struct Via<'a> {
    /// The node it was reached from: its parent in the traversal tree (the root for direct
    /// results).
    pub id: &'a str,
    /// The kind of the edge between them.
    pub kind: EdgeKind,
    /// Whether the stored edge points from this node to `id` (callers, impact: the caller
    /// calls its parent) rather than from `id` to this node.
    pub from_node: bool,
    /// The stored edge, with its facts (call count, sites, resolution, context); `None` when
    /// the sink does not want it ([`ResultSink::wants_via_edges`]).
    pub edge: Option<EdgeView<'a>>,
}

/// What a query knows about one result node beyond its record.
#[derive(Clone, Copy)]
pub struct NodeInfo<'a> {
    /// Hops from the root (0 for the root itself); for file symbols, the nesting depth
    /// (0 for a top-level symbol); for paths, the position on the path.
    pub depth: u32,
    /// How it was reached (traversals); `None` for the root and non-traversal results.
    pub via: Option<Via<'a>>,
    /// The IDs from the root's first hop down to `via` (transitive results show the chain
    /// they were reached through); empty for direct results.
    pub chain: &'a [&'a str],
    /// File symbols: the container's ID (a class for its members), `None` at top level.
    pub parent: Option<&'a str>,
    /// Search: how the pattern matched.
    pub matched: Option<MatchKind>,
    /// Search and file symbols: for a class or interface, the symbol paths of what it
    /// extends, `, `-separated (seed 002's `extends` column); empty otherwise.
    pub extends: &'a str,
    /// Traversals: the node was reached through a CALLS edge that may happen rather than
    /// surely does ([`tsgraph_engine::Resolution::is_may_call`]): dispatch — a call of an
    /// interface or base member that may reach this override or implementation (or, for
    /// callees, may be made by it) — or an entry of a table called by a computed key.
    pub may_call: bool,
}

/// How a search pattern matched a node, best first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MatchKind {
    /// The name or dotted symbol path, exactly.
    Exact,
    /// The same, ignoring case.
    ExactIgnoringCase,
    /// The name or path starts with the pattern (case-insensitive).
    Prefix,
    /// A glob pattern (`*`, `?`) matched.
    Glob,
    /// The pattern's characters appear in order (case-insensitive).
    Fuzzy,
    /// Topic search: the name shares words with the query.
    Topic,
}

impl MatchKind {
    /// The name used in outputs.
    pub const fn as_str(self) -> &'static str {
        match self {
            MatchKind::Exact => "exact",
            MatchKind::ExactIgnoringCase => "case",
            MatchKind::Prefix => "prefix",
            MatchKind::Glob => "glob",
            MatchKind::Fuzzy => "fuzzy",
            MatchKind::Topic => "topic",
        }
    }
}

/// One edge of a result.
#[derive(Clone, Copy)]
pub struct EdgeInfo<'a> {
    /// The kind.
    pub kind: EdgeKind,
    /// The stored edge's source node ID.
    pub source: &'a str,
    /// The stored edge's target node ID.
    pub target: &'a str,
    /// Paths: the hop walks the stored edge backwards (an interface member to the class
    /// member that implements it).
    pub reversed: bool,
    /// CALLS: call sites (0 when unknown).
    pub count: u32,
    /// The stored edge with all its facts; `None` for an edge between results when the
    /// sink does not want them ([`ResultSink::wants_edge_facts`]).
    pub stored: Option<EdgeView<'a>>,
    /// An edge between results: the places of its source and target among the answer's
    /// nodes, the same number for the same node from [`ResultSink::begin`] to
    /// [`ResultSink::finish`] (below the header's `shape.nodes` plus one, for a root the
    /// answer does not list), so a sink can reuse what it made of an ID. `None` for a
    /// path's hops.
    pub places: Option<(u32, u32)>,
}

impl EdgeInfo<'_> {
    /// A CALLS edge that may happen rather than surely does (read from the stored facts, so
    /// `false` when the sink did not ask for them).
    pub fn may_call(&self) -> bool {
        self.kind == EdgeKind::Calls
            && self
                .stored
                .is_some_and(|stored| stored.resolution().is_may_call())
    }
}

/// A package reached by `deps`: one the package asked for depends on (direction out) or
/// one that depends on it (in), directly or through `via`.
#[derive(Debug, Clone, Copy)]
pub struct Dependency<'a> {
    /// The package's name.
    pub name: &'a str,
    /// Its module (empty for an external package).
    pub module: &'a str,
    /// Whether it is outside the project (known only by the name files import).
    pub external: bool,
    /// Hops from the package asked for.
    pub depth: u32,
    /// The package it was reached from: the package asked for, for direct dependencies.
    pub via: &'a str,
    /// How many file imports create the dependency between it and `via`.
    pub imports: usize,
    /// How many of them follow as [`DependencyImport`]s (the first few).
    pub listed: usize,
}

/// One file import that creates a [`Dependency`]; these follow all dependencies, in their
/// order, by importing file.
#[derive(Debug, Clone, Copy)]
pub struct DependencyImport<'a> {
    /// The dependency's package name.
    pub package: &'a str,
    /// Whether that package is outside the project.
    pub external: bool,
    /// The importing file.
    pub from: &'a str,
    /// The imported file; `None` for a package outside the project.
    pub to: Option<&'a str>,
    /// The line of the import (the first, when the file imports the other more than once);
    /// `None` when unknown.
    pub line: Option<u32>,
}

/// Why a traversal ended, from the most complete answer to the least.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Hash)]
pub enum Stop {
    /// Everything reachable within the bounds was reached, and nothing lay beyond the depth
    /// bound: the answer is complete.
    #[default]
    Complete,
    /// The depth bound was reached with edges still leading to nodes not reached: more
    /// results lie deeper.
    DepthBound,
    /// The node limit was reached: more results exist at the depth it stopped at or deeper.
    NodeLimit,
}

impl Stop {
    /// The name used in outputs.
    pub const fn as_str(self) -> &'static str {
        match self {
            Stop::Complete => "complete",
            Stop::DepthBound => "depth",
            Stop::NodeLimit => "nodes",
        }
    }

    /// A sentence for people.
    pub const fn describe(self) -> &'static str {
        match self {
            Stop::Complete => "complete: nothing lay beyond the bounds",
            Stop::DepthBound => "at the depth bound, with edges leading further",
            Stop::NodeLimit => "at the node limit, with more nodes to reach",
        }
    }
}

/// How a result ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Summary {
    /// The traversal stopped at its node limit (deps: at its depth, which `limit` then is);
    /// more results exist.
    pub truncated: bool,
    /// Traversals, paths and deps: why the walk ended (paths: complete when the paths asked
    /// for were found).
    pub stop: Stop,
    /// Traversals, paths and deps: the plan that ran, what it touched and where it stopped.
    pub explain: Option<crate::plan::Explain>,
    /// The node limit that applied.
    pub limit: usize,
    /// Paths: whether a path was found.
    pub found: bool,
    /// The sink asked to stop before the end.
    pub stopped: bool,
    /// The listing left results out — a token budget cut it, or it started at an offset;
    /// the header's [`Listing`] says which.
    pub partial: bool,
}

impl Summary {
    /// Whether the answer is complete: every result within reach was found and listed, and
    /// nothing lay past the depth bound (a path: one was found, or none exists within the
    /// search depth and no longer one may).
    pub fn complete(&self) -> bool {
        self.stop == Stop::Complete && !self.truncated && !self.partial && !self.stopped
    }

    /// The depth bound, when it cut the answer: a traversal stopped at it with edges leading
    /// further, or a path search gave up at it without a path. `None` for a complete answer,
    /// one cut by its node limit, and results that are not walks from a root (deps says its
    /// depth through `truncated`).
    pub fn deeper(&self) -> Option<u32> {
        let explain = self.explain?;
        let walk = explain.plan.kind != QueryKind::Deps;
        (walk && self.stop == Stop::DepthBound).then_some(explain.plan.max_depth)
    }
}

/// Runs one answer into the sink it is given (see [`ResultSink::measure`]).
pub type Answer<'f> = dyn FnMut(&mut dyn ResultSink) -> Result<(), crate::QueryError> + 'f;

/// Receives a query result. Every method may fail with a [`SinkError`], which aborts the
/// query.
pub trait ResultSink {
    /// The answer's token budget and the offset to list from; `None` lists every result.
    /// Asked once, before `begin`. A sink that has one must also [`measure`](Self::measure).
    fn budget(&self) -> Option<Budget> {
        None
    }
    /// Runs `answer` into a sink of this sink's format and options whose output is only
    /// counted, and returns its estimated tokens, or `None` as soon as they pass `limit`
    /// (the query then tries a shorter listing). The default measures nothing (`Some(0)`):
    /// a sink without a budget is never asked.
    fn measure(
        &self,
        _limit: usize,
        answer: &mut Answer<'_>,
    ) -> Result<Option<usize>, crate::QueryError> {
        let _ = answer;
        Ok(Some(0))
    }
    /// How the nodes of a `kind` result should be grouped; asked once, before `begin`.
    fn grouping(&self, _kind: QueryKind) -> Grouping {
        Grouping::None
    }
    /// Whether the sink reads [`Via::edge`]: when it does not, the query skips one lookup
    /// per result node (the stored edge with its facts) and hands `None`. Asked once, before
    /// `begin`.
    fn wants_via_edges(&self) -> bool {
        true
    }
    /// Whether the sink reads [`NodeInfo::chain`]: when it does not, the query hands an empty
    /// chain and skips walking each result's parents up to the root. Asked once, before
    /// `begin`.
    fn wants_chains(&self) -> bool {
        true
    }
    /// Whether the sink reads [`EdgeInfo::stored`] of the edges between results (neighbors,
    /// export): when it does not, the query hands `None` and skips reading each edge again
    /// from its source's list (the call count comes either way). Asked once, before `begin`.
    fn wants_edge_facts(&self) -> bool {
        true
    }
    /// The result's shape and counts; called once, first.
    fn begin(&mut self, header: &Header<'_>) -> Result<(), SinkError>;
    /// A group opens; its nodes (and nested groups) follow. `Ok(false)` stops the query.
    fn group(&mut self, _group: &Group<'_>) -> Result<bool, SinkError> {
        Ok(true)
    }
    /// One node, in the order of its group. `Ok(false)` stops the query.
    fn node(&mut self, node: &NodeView<'_>, info: &NodeInfo<'_>) -> Result<bool, SinkError>;
    /// One edge: for paths after the nodes of their path, in path order; otherwise after
    /// all nodes, sorted by the source's position, then edge kind, then the target's
    /// position. `Ok(false)` stops the query.
    fn edge(&mut self, edge: &EdgeInfo<'_>) -> Result<bool, SinkError>;
    /// A listed answer ([`Header::listing`]): called once after its nodes (before the edges
    /// between them), when the results after the page can be summed up by file.
    /// `Ok(false)` stops the query.
    fn unlisted(&mut self, _listing: &Listing<'_>) -> Result<bool, SinkError> {
        Ok(true)
    }
    /// Deps: one dependency, after `begin`, in order. `Ok(false)` stops the query.
    fn dependency(&mut self, _dependency: &Dependency<'_>) -> Result<bool, SinkError> {
        Ok(true)
    }
    /// Deps: one import creating a dependency, after every dependency. `Ok(false)` stops
    /// the query.
    fn dependency_import(&mut self, _import: &DependencyImport<'_>) -> Result<bool, SinkError> {
        Ok(true)
    }
    /// The end; called once, last (also after a stop).
    fn finish(&mut self, summary: &Summary) -> Result<(), SinkError>;
}
