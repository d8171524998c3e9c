//! The query planner. Every traversal reads the graph through one view of the snapshot
//! under petgraph's visit traits ([`view`]); the planner decides per question which walk
//! runs over it, in which direction, along which edge kinds and under which bound, and
//! afterwards reports what the walk touched and where it stopped ([`Explain`], which the
//! command line prints with `--explain`).
//!
//! - callers, impact: a depth-bounded BFS along incoming edges; callees: along outgoing
//!   ones; neighbors: along the directions asked, incoming first. A class asked for callers
//!   or callees is one walk per method, the node limit shared between them.
//! - path: a bidirectional BFS, widening the smaller frontier; for k paths, Yen's algorithm
//!   over it, each spur search on the graph filtered by petgraph's `EdgeFiltered`.
//!
//! Edge kinds are filtered with petgraph's `EdgeFiltered` over the view; the walks
//! petgraph lacks (BFS recording depth and via edge, bidirectional search, Yen's paths
//! with their edges) are written once over the same traits ([`bfs`], [`paths`]).

pub(crate) mod bfs;
pub(crate) mod path_view;
pub(crate) mod paths;
pub(crate) mod view;

use std::fmt;

use crate::kinds::EdgeKinds;
use crate::sink::{Direction, QueryKind, Stop};

/// How a query walks the graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// Breadth-first from the root, level by level, up to a depth.
    BoundedBfs,
    /// From both ends at once, widening the smaller frontier.
    Bidirectional,
    /// Yen's k shortest loopless paths, each search bidirectional.
    KShortest {
        /// Paths asked for.
        k: usize,
    },
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Strategy::BoundedBfs => f.write_str("bounded breadth-first search"),
            Strategy::Bidirectional => f.write_str("bidirectional breadth-first search"),
            Strategy::KShortest { k } => {
                write!(f, "Yen's {k} shortest paths over bidirectional searches")
            }
        }
    }
}

/// What the planner chose for one query.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    /// The question.
    pub kind: QueryKind,
    /// The walk.
    pub strategy: Strategy,
    /// The adjacency followed from the root (paths: out from the start, in from the end).
    pub direction: Direction,
    /// The edge kinds followed.
    pub edge_kinds: EdgeKinds,
    /// Hops from the root at most (paths: the longest path).
    pub max_depth: u32,
    /// Nodes reached at most (paths: visited by one search).
    pub max_nodes: usize,
    /// Walks run: 1; one per method of a class plus the class itself; for a path not found
    /// the way asked, 2 (the other way was searched too).
    pub walks: usize,
}

/// A plan with what running it cost and where it stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Explain {
    /// What was chosen.
    pub plan: Plan,
    /// Adjacency lists a walk read (each a lookup in the graph file or, through the overlay,
    /// in the store); paths also look up one edge in a caller's list per incoming call,
    /// which is not counted; deps: the importing files' lists its package graph was built
    /// from.
    pub lists_read: usize,
    /// Nodes reached (paths: visited by all searches, both ends counted).
    pub nodes_reached: usize,
    /// Why the walk ended.
    pub stop: Stop,
}

impl fmt::Display for Explain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plan = &self.plan;
        writeln!(f, "plan: {}, {}", plan.kind.as_str(), plan.strategy)?;
        writeln!(f, "  direction: {}", plan.direction.as_str())?;
        writeln!(f, "  edge kinds: {}", plan.edge_kinds)?;
        match plan.kind {
            // Deps walks a package graph small enough to take whole.
            QueryKind::Deps => writeln!(f, "  bounds: depth {}", plan.max_depth)?,
            _ => writeln!(
                f,
                "  bounds: depth {}, nodes {}",
                plan.max_depth, plan.max_nodes
            )?,
        }
        match (plan.kind, plan.walks) {
            (_, 0 | 1) => {}
            (QueryKind::Path, walks) => {
                writeln!(
                    f,
                    "  walks: {walks} (no path the way asked: the other way too)"
                )?;
            }
            (_, walks) => writeln!(f, "  walks: {walks} (the class and each method)")?,
        }
        writeln!(
            f,
            "touched: adjacency lists {}, nodes reached {}",
            self.lists_read, self.nodes_reached
        )?;
        let stopped = match (plan.kind, self.stop) {
            (QueryKind::Path, Stop::DepthBound) => {
                "at the depth bound with fewer paths than asked for: a longer path may exist"
            }
            (QueryKind::Path, Stop::NodeLimit) => {
                "at the node limit with fewer paths than asked for"
            }
            (_, stop) => stop.describe(),
        };
        writeln!(f, "stopped: {stopped}")
    }
}

/// The directions a walk from the root reads, in order.
pub(crate) fn directions(direction: Direction) -> &'static [petgraph::Direction] {
    use petgraph::Direction::{Incoming, Outgoing};
    match direction {
        Direction::In => &[Incoming],
        Direction::Out => &[Outgoing],
        Direction::Both => &[Incoming, Outgoing],
    }
}
