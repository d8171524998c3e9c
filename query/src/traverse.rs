//! Bounded breadth-first traversals: callers, callees, impact and neighbors.

use std::collections::HashSet;

use tsgraph_engine::{EdgeKind, NodeKey, Snapshot};

use crate::Query;
use crate::error::QueryError;
use crate::order::{existing, load, sorted, uniform};
use crate::sink::{Direction, Header, NodeInfo, QueryKind, ResultSink, Summary};
use crate::subgraph::{self, OutsideEdges};

/// Limits of callers, callees and impact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TraversalOptions {
    /// Hops from the root, at least 1 (default 5).
    pub max_depth: u32,
    /// Result nodes at most (default 500); past it the result says it was truncated.
    pub max_nodes: usize,
}

impl Default for TraversalOptions {
    fn default() -> Self {
        TraversalOptions {
            max_depth: 5,
            max_nodes: 500,
        }
    }
}

/// Limits and direction of neighbors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NeighborOptions {
    /// Hops from the center (default 1).
    pub distance: u32,
    /// Which edges to follow (default both).
    pub direction: Direction,
    /// Result nodes at most, the center included (default 500).
    pub max_nodes: usize,
}

impl Default for NeighborOptions {
    fn default() -> Self {
        NeighborOptions {
            distance: 1,
            direction: Direction::Both,
            max_nodes: 500,
        }
    }
}

/// Impact follows every dependency edge backwards. CONTAINS is structure, not dependency:
/// following it from a member up to its file would pull in every importer of the file.
const IMPACT_KINDS: &[EdgeKind] = &[
    EdgeKind::Calls,
    EdgeKind::Imports,
    EdgeKind::Extends,
    EdgeKind::Implements,
    EdgeKind::UsesType,
    EdgeKind::References,
    EdgeKind::Includes,
];

/// What a BFS found: every reached node (the root at depth 0) in discovery order.
struct Reached {
    nodes: Vec<(NodeKey, NodeInfo)>,
    truncated: bool,
}

fn bfs(
    snapshot: &Snapshot,
    root: NodeKey,
    max_depth: u32,
    max_nodes: usize,
    direction: Direction,
    kinds: Option<&[EdgeKind]>,
) -> Result<Reached, QueryError> {
    let mut seen: HashSet<NodeKey> = HashSet::new();
    let mut nodes = vec![(
        root,
        NodeInfo {
            depth: 0,
            via: None,
        },
    )];
    seen.insert(root);
    let mut frontier_start = 0;
    let mut truncated = false;
    'levels: for depth in 1..=max_depth {
        let frontier_end = nodes.len();
        for index in frontier_start..frontier_end {
            let key = nodes[index].0;
            let lists = [
                matches!(direction, Direction::In | Direction::Both)
                    .then(|| snapshot.in_edges(key)),
                matches!(direction, Direction::Out | Direction::Both)
                    .then(|| snapshot.out_edges(key)),
            ];
            for list in lists.into_iter().flatten() {
                let list = list?;
                for edge in list.edges()? {
                    if kinds.is_some_and(|kinds| !kinds.contains(&edge.kind()))
                        || seen.contains(&edge.other())
                    {
                        continue;
                    }
                    if nodes.len() > max_nodes {
                        truncated = true;
                        break 'levels;
                    }
                    seen.insert(edge.other());
                    nodes.push((
                        edge.other(),
                        NodeInfo {
                            depth,
                            via: Some(edge.kind()),
                        },
                    ));
                }
            }
        }
        if nodes.len() == frontier_end {
            break;
        }
        frontier_start = frontier_end;
    }
    Ok(Reached { nodes, truncated })
}

impl Query<'_> {
    /// Every function or method that calls `root`, transitively up to `max_depth` hops.
    pub fn callers(
        &self,
        root: NodeKey,
        options: &TraversalOptions,
        sink: &mut dyn ResultSink,
    ) -> Result<Summary, QueryError> {
        self.dependents(
            QueryKind::Callers,
            root,
            options,
            Direction::In,
            Some(&[EdgeKind::Calls]),
            sink,
        )
    }

    /// Everything `root` calls, transitively up to `max_depth` hops.
    pub fn callees(
        &self,
        root: NodeKey,
        options: &TraversalOptions,
        sink: &mut dyn ResultSink,
    ) -> Result<Summary, QueryError> {
        self.dependents(
            QueryKind::Callees,
            root,
            options,
            Direction::Out,
            Some(&[EdgeKind::Calls]),
            sink,
        )
    }

    /// Everything that depends on `root` through any dependency edge, transitively, each with
    /// the kind of edge by which it was first reached.
    pub fn impact(
        &self,
        root: NodeKey,
        options: &TraversalOptions,
        sink: &mut dyn ResultSink,
    ) -> Result<Summary, QueryError> {
        self.dependents(
            QueryKind::Impact,
            root,
            options,
            Direction::In,
            Some(IMPACT_KINDS),
            sink,
        )
    }

    fn dependents(
        &self,
        kind: QueryKind,
        root: NodeKey,
        options: &TraversalOptions,
        direction: Direction,
        kinds: Option<&[EdgeKind]>,
        sink: &mut dyn ResultSink,
    ) -> Result<Summary, QueryError> {
        let snapshot = self.snapshot();
        let root_guard = existing(snapshot, root)?;
        let reached = bfs(
            snapshot,
            root,
            options.max_depth.max(1),
            options.max_nodes,
            direction,
            kinds,
        )?;
        let held = load(snapshot, reached.nodes.into_iter().skip(1))?;
        let nodes = sorted(&held)?;
        sink.begin(&Header {
            kind,
            root: Some(root_guard.view()?),
            target: None,
            depth: options.max_depth.max(1),
            direction,
            nodes: nodes.len(),
            edges: 0,
            package: uniform(&nodes, |v| v.package()),
            module: uniform(&nodes, |v| v.module()),
        })?;
        for node in &nodes {
            sink.node(&node.view, &node.info)?;
        }
        let summary = Summary {
            truncated: reached.truncated,
            limit: options.max_nodes,
            found: true,
        };
        sink.finish(&summary)?;
        Ok(summary)
    }

    /// Every node within `distance` hops of `center` (the center included, at depth 0), and
    /// every edge between two of them.
    pub fn neighbors(
        &self,
        center: NodeKey,
        options: &NeighborOptions,
        sink: &mut dyn ResultSink,
    ) -> Result<Summary, QueryError> {
        let snapshot = self.snapshot();
        let center_guard = existing(snapshot, center)?;
        // The center counts against the limit here (the BFS limit counts only the others).
        let reached = bfs(
            snapshot,
            center,
            options.distance,
            options.max_nodes.saturating_sub(1),
            options.direction,
            None,
        )?;
        let held = load(snapshot, reached.nodes.iter().copied())?;
        let nodes = sorted(&held)?;
        let header = Header {
            kind: QueryKind::Neighbors,
            root: Some(center_guard.view()?),
            target: None,
            depth: options.distance,
            direction: options.direction,
            nodes: 0,
            edges: 0,
            package: None,
            module: None,
        };
        let summary = Summary {
            truncated: reached.truncated,
            limit: options.max_nodes,
            found: true,
        };
        subgraph::stream(snapshot, header, &nodes, OutsideEdges::Skip, summary, sink)
    }
}

#[cfg(test)]
mod tests;
