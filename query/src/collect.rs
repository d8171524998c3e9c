//! A sink that collects IDs, for tests and for callers that want plain data.

use tsgraph_engine::NodeView;

use crate::header::Header;
use crate::sink::{
    Dependency, DependencyImport, EdgeInfo, Group, NodeInfo, ResultSink, SinkError, Summary,
};

/// Collects `(id, depth)` per node, `(source, kind, target)` per edge and the section names.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct CollectSink {
    /// Nodes with their depth, in the order received.
    pub nodes: Vec<(String, u32)>,
    /// Each node's via (the ID it was reached from), in the order received.
    pub vias: Vec<Option<String>>,
    /// Edges as `(source, KIND, target)`.
    pub edges: Vec<(String, String, String)>,
    /// Section groups (a class's methods; paths) by name, in order.
    pub sections: Vec<String>,
    /// Deps: `(package, depth, via)` per dependency, in the order received.
    pub dependencies: Vec<(String, u32, String)>,
    /// Deps: `(package, importing file, imported file or "")` per import received.
    pub imports: Vec<(String, String, String)>,
    /// The summary received.
    pub summary: Summary,
    /// Stop after this many nodes (the early-stop contract), if set.
    pub stop_after: Option<usize>,
}

impl ResultSink for CollectSink {
    fn begin(&mut self, _header: &Header<'_>) -> Result<(), SinkError> {
        Ok(())
    }
    fn group(&mut self, group: &Group<'_>) -> Result<bool, SinkError> {
        if group.level == crate::GroupLevel::Section {
            self.sections.push(group.name.to_owned());
        }
        Ok(true)
    }
    fn node(&mut self, node: &NodeView<'_>, info: &NodeInfo<'_>) -> Result<bool, SinkError> {
        self.nodes.push((node.id().to_owned(), info.depth));
        self.vias.push(info.via.map(|v| v.id.to_owned()));
        Ok(self.stop_after.is_none_or(|n| self.nodes.len() < n))
    }
    fn edge(&mut self, edge: &EdgeInfo<'_>) -> Result<bool, SinkError> {
        self.edges.push((
            edge.source.to_owned(),
            edge.kind.to_string(),
            edge.target.to_owned(),
        ));
        Ok(true)
    }
    fn dependency(&mut self, dependency: &Dependency<'_>) -> Result<bool, SinkError> {
        self.dependencies.push((
            dependency.name.to_owned(),
            dependency.depth,
            dependency.via.to_owned(),
        ));
        Ok(true)
    }
    fn dependency_import(&mut self, import: &DependencyImport<'_>) -> Result<bool, SinkError> {
        self.imports.push((
            import.package.to_owned(),
            import.from.to_owned(),
            import.to.unwrap_or("").to_owned(),
        ));
        Ok(true)
    }
    fn finish(&mut self, summary: &Summary) -> Result<(), SinkError> {
        self.summary = *summary;
        Ok(())
    }
}
