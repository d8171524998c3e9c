//! Export: every node in position order, then every edge (by source position, kind, target).

use std::collections::HashMap;

use tsgraph_engine::{EdgeRef, NodeKey};

use crate::Query;
use crate::error::QueryError;
use crate::order::{load, sorted, uniform};
use crate::sink::{Direction, EdgeInfo, Header, NodeInfo, QueryKind, ResultSink, Summary};

impl Query<'_> {
    /// Streams the whole graph into `sink`. Memory grows with the graph (every record guard is
    /// held so nodes can be sorted); this is the one unbounded query, meant for dumps.
    pub fn export(&self, sink: &mut dyn ResultSink) -> Result<Summary, QueryError> {
        let snapshot = self.snapshot();
        let keys = snapshot.node_keys()?;
        let held = load(
            snapshot,
            keys.into_iter().map(|key| {
                (
                    key,
                    NodeInfo {
                        depth: 0,
                        via: None,
                    },
                )
            }),
        )?;
        let nodes = sorted(&held)?;
        let rank: HashMap<NodeKey, usize> =
            nodes.iter().enumerate().map(|(i, n)| (n.key, i)).collect();
        let lists = nodes
            .iter()
            .map(|n| snapshot.out_edges(n.key))
            .collect::<Result<Vec<_>, _>>()?;
        let mut edges: Vec<(usize, usize, EdgeRef<'_>)> = Vec::new();
        for (from, list) in lists.iter().enumerate() {
            for edge in list.edges()? {
                let to = rank
                    .get(&edge.other())
                    .copied()
                    .ok_or(QueryError::MissingNode(edge.other().0))?;
                edges.push((from, to, edge));
            }
        }
        edges.sort_by_key(|(from, to, edge)| (*from, edge.kind(), *to));
        sink.begin(&Header {
            kind: QueryKind::Export,
            root: None,
            target: None,
            depth: 0,
            direction: Direction::Both,
            nodes: nodes.len(),
            edges: edges.len(),
            package: uniform(&nodes, |v| v.package()),
            module: uniform(&nodes, |v| v.module()),
        })?;
        for node in &nodes {
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
        let summary = Summary {
            truncated: false,
            limit: 0,
            found: true,
        };
        sink.finish(&summary)?;
        Ok(summary)
    }
}
