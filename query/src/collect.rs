//! A sink that collects IDs, for tests and for callers that want plain data.

use std::io;

use tsgraph_engine::NodeView;

use crate::sink::{EdgeInfo, Header, NodeInfo, ResultSink, Summary};

/// Collects `(id, depth)` per node and `(source, kind, target)` per edge.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct CollectSink {
    /// Nodes with their depth, in the order received.
    pub nodes: Vec<(String, u32)>,
    /// Edges as `(source, KIND, target)`.
    pub edges: Vec<(String, String, String)>,
    /// The summary received.
    pub summary: Summary,
}

impl ResultSink for CollectSink {
    fn begin(&mut self, _header: &Header<'_>) -> io::Result<()> {
        Ok(())
    }
    fn node(&mut self, node: &NodeView<'_>, info: &NodeInfo) -> io::Result<()> {
        self.nodes.push((node.id().to_owned(), info.depth));
        Ok(())
    }
    fn edge(&mut self, edge: &EdgeInfo<'_>) -> io::Result<()> {
        self.edges.push((
            edge.source.to_owned(),
            edge.kind.to_string(),
            edge.target.to_owned(),
        ));
        Ok(())
    }
    fn finish(&mut self, summary: &Summary) -> io::Result<()> {
        self.summary = *summary;
        Ok(())
    }
}
