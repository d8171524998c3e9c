//! Shortest paths: a bounded BFS loads the reachable subgraph into petgraph, which finds the
//! path.

use std::collections::HashSet;

use petgraph::algo::astar;
use petgraph::graphmap::DiGraphMap;
use tsgraph_engine::{EdgeKind, NodeKey};

use crate::Query;
use crate::error::QueryError;
use crate::order::{existing, load, placed, uniform};
use crate::sink::{Direction, EdgeInfo, Header, NodeInfo, QueryKind, ResultSink, Summary};

/// Limits of a path search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathOptions {
    /// Longest path searched, in hops (default 20).
    pub max_depth: u32,
    /// Nodes loaded at most while searching (default 100 000); past it the search gives up and
    /// says it was truncated.
    pub max_nodes: usize,
}

impl Default for PathOptions {
    fn default() -> Self {
        PathOptions {
            max_depth: 20,
            max_nodes: 100_000,
        }
    }
}

/// Paths follow calls and references, the edges along which control or data flows.
const PATH_KINDS: &[EdgeKind] = &[EdgeKind::Calls, EdgeKind::References];

impl Query<'_> {
    /// A shortest path from `from` to `to` over CALLS and REFERENCES, or none. The nodes come
    /// in path order (depth = position on the path), then the edges along it.
    pub fn path(
        &self,
        from: NodeKey,
        to: NodeKey,
        options: &PathOptions,
        sink: &mut dyn ResultSink,
    ) -> Result<Summary, QueryError> {
        let snapshot = self.snapshot();
        let (graph, truncated) = self.reachable_subgraph(from, to, options)?;
        let found = astar(&graph, from.0, |n| n == to.0, |_| 1u32, |_| 0u32);
        let path: Vec<NodeKey> = found
            .map(|(_, keys)| keys.into_iter().map(NodeKey).collect())
            .unwrap_or_default();
        let hops = path.len().saturating_sub(1);
        let infos = path.iter().enumerate().map(|(depth, key)| {
            let depth = u32::try_from(depth).unwrap_or(u32::MAX);
            (*key, NodeInfo { depth, via: None })
        });
        let held = load(snapshot, infos)?;
        let nodes = placed(&held)?;
        let from_guard = existing(snapshot, from)?;
        let to_guard = existing(snapshot, to)?;
        sink.begin(&Header {
            kind: QueryKind::Path,
            root: Some(from_guard.view()?),
            target: Some(to_guard.view()?),
            depth: options.max_depth,
            direction: Direction::Out,
            nodes: nodes.len(),
            edges: hops,
            package: uniform(&nodes, |v| v.package()),
            module: uniform(&nodes, |v| v.module()),
        })?;
        for node in &nodes {
            sink.node(&node.view, &node.info)?;
        }
        for pair in nodes.windows(2) {
            let [source, target] = pair else { continue };
            let kind = graph
                .edge_weight(source.key.0, target.key.0)
                .copied()
                .unwrap_or(EdgeKind::Calls);
            sink.edge(&EdgeInfo {
                kind,
                source: source.view.id(),
                target: target.view.id(),
                count: 0,
                stored: None,
            })?;
        }
        let summary = Summary {
            truncated: truncated && nodes.is_empty(),
            limit: options.max_nodes,
            found: !nodes.is_empty(),
        };
        sink.finish(&summary)?;
        Ok(summary)
    }

    /// Everything reachable from `from` within the limits, stopping early once `to` is seen.
    fn reachable_subgraph(
        &self,
        from: NodeKey,
        to: NodeKey,
        options: &PathOptions,
    ) -> Result<(DiGraphMap<u32, EdgeKind>, bool), QueryError> {
        let snapshot = self.snapshot();
        let mut graph = DiGraphMap::new();
        graph.add_node(from.0);
        if from == to {
            return Ok((graph, false));
        }
        let mut seen: HashSet<NodeKey> = HashSet::from([from]);
        let mut frontier = vec![from];
        let mut truncated = false;
        for _ in 0..options.max_depth {
            if frontier.is_empty() || seen.contains(&to) {
                break;
            }
            let mut next = Vec::new();
            'frontier: for key in frontier {
                let list = snapshot.out_edges(key)?;
                for edge in list.edges()? {
                    if !PATH_KINDS.contains(&edge.kind()) {
                        continue;
                    }
                    if !graph.contains_edge(key.0, edge.other().0) {
                        graph.add_edge(key.0, edge.other().0, edge.kind());
                    }
                    if seen.insert(edge.other()) {
                        if seen.len() > options.max_nodes {
                            truncated = true;
                            break 'frontier;
                        }
                        next.push(edge.other());
                    }
                }
            }
            if truncated {
                break;
            }
            frontier = next;
        }
        Ok((graph, truncated))
    }
}
