//! Export: every node in position order, then every edge (by source position, kind, target).

use crate::Query;
use crate::error::QueryError;
use crate::order::{load, sorted};
use crate::sink::{Direction, Header, NodeInfo, QueryKind, ResultSink, Summary};
use crate::subgraph::{self, OutsideEdges};

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
        let header = Header {
            kind: QueryKind::Export,
            root: None,
            target: None,
            depth: 0,
            direction: Direction::Both,
            nodes: 0,
            edges: 0,
            package: None,
            module: None,
        };
        let summary = Summary {
            truncated: false,
            limit: 0,
            found: true,
        };
        subgraph::stream(snapshot, header, &nodes, OutsideEdges::Fail, summary, sink)
    }
}
