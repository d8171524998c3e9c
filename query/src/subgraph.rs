//! Streaming a set of nodes together with the stored edges between them (neighbors, export).

use std::collections::HashMap;

use tsgraph_engine::{EdgeRef, NodeKey, Snapshot};

use crate::error::QueryError;
use crate::order::{Placed, uniform};
use crate::sink::{EdgeInfo, Header, ResultSink, Summary};

/// What to do with an edge whose other end is not among the nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OutsideEdges {
    /// Leave it out (neighbors: the edge leaves the neighborhood).
    Skip,
    /// Fail (export: every node is present, so the store is inconsistent).
    Fail,
}

/// Streams `header` (its counts, package and module filled in here), `nodes` in the given
/// order, then every stored edge between two of them sorted by the source's position, edge
/// kind and the target's position, then `summary`.
pub(crate) fn stream(
    snapshot: &Snapshot,
    header: Header<'_>,
    nodes: &[Placed<'_>],
    outside: OutsideEdges,
    summary: Summary,
    sink: &mut dyn ResultSink,
) -> Result<Summary, QueryError> {
    // Each node's place in the output, so edges follow the same order.
    let rank: HashMap<NodeKey, usize> = nodes.iter().enumerate().map(|(i, n)| (n.key, i)).collect();
    let lists = nodes
        .iter()
        .map(|n| snapshot.out_edges(n.key))
        .collect::<Result<Vec<_>, _>>()?;
    let mut edges: Vec<(usize, usize, EdgeRef<'_>)> = Vec::new();
    for (from, list) in lists.iter().enumerate() {
        for edge in list.edges()? {
            match (rank.get(&edge.other()), outside) {
                (Some(&to), _) => edges.push((from, to, edge)),
                (None, OutsideEdges::Skip) => {}
                (None, OutsideEdges::Fail) => return Err(QueryError::MissingNode(edge.other().0)),
            }
        }
    }
    edges.sort_by_key(|(from, to, edge)| (*from, edge.kind(), *to));
    sink.begin(&Header {
        nodes: nodes.len(),
        edges: edges.len(),
        package: uniform(nodes, |v| v.package()),
        module: uniform(nodes, |v| v.module()),
        ..header
    })?;
    for node in nodes {
        sink.node(&node.view, &node.info)?;
    }
    for (from, to, edge) in edges {
        let (Some(source), Some(target)) = (nodes.get(from), nodes.get(to)) else {
            continue;
        };
        sink.edge(&EdgeInfo {
            kind: edge.kind(),
            source: source.view.id(),
            target: target.view.id(),
            count: edge.count(),
            stored: Some(edge),
        })?;
    }
    sink.finish(&summary)?;
    Ok(summary)
}
