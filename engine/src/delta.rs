//! What a write changed in the graph: nodes and edges added, removed and changed, compared by
//! public ID (nodes) and by (source ID, kind, target ID) (edges).

use std::collections::BTreeMap;

use crate::model::EdgeKind;
use crate::record::{EdgeFacts, EdgeSpec, NodeRecord};

/// The difference between two states of the graph.
///
/// Nodes are matched by ID: a node in both states whose record differs (lines, flags,
/// parameters, …) is *changed*. Edges are matched by source, kind and target: one in both
/// states whose facts differ (call count, sites, names, …) is *changed*. Every list is sorted
/// (nodes by ID, edges by source, kind, target), so two deltas of the same change are equal.
///
/// ```
/// use tsgraph_engine::{EdgeKind, EdgeSpec, GraphDelta, NodeKind, NodeRecord};
///
/// let file = NodeRecord::new("a.ts", NodeKind::File, "a.ts", "a.ts", 1, 9);
/// let main = NodeRecord::new("a.ts:main", NodeKind::Function, "main", "a.ts", 1, 3);
/// let helper = NodeRecord::new("a.ts:helper", NodeKind::Function, "helper", "a.ts", 5, 9);
/// let old = (vec![file.clone(), main.clone()], vec![]);
/// let new = (
///     vec![file, main, helper],
///     vec![EdgeSpec::new("a.ts:main", "a.ts:helper", EdgeKind::Calls)],
/// );
/// let delta = GraphDelta::between(old.0, old.1, new.0, new.1);
/// assert_eq!(delta.nodes_added.len(), 1);
/// assert_eq!(delta.edges_added[0].target, "a.ts:helper");
/// assert!(delta.nodes_removed.is_empty() && delta.nodes_changed.is_empty());
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GraphDelta {
    /// Nodes only in the new state.
    pub nodes_added: Vec<NodeRecord>,
    /// Nodes only in the old state (their old records).
    pub nodes_removed: Vec<NodeRecord>,
    /// Nodes in both whose records differ (their new records).
    pub nodes_changed: Vec<NodeRecord>,
    /// Edges only in the new state.
    pub edges_added: Vec<EdgeSpec>,
    /// Edges only in the old state.
    pub edges_removed: Vec<EdgeSpec>,
    /// Edges in both whose facts differ (with their new facts).
    pub edges_changed: Vec<EdgeSpec>,
}

type EdgeKey = (String, EdgeKind, String);

impl GraphDelta {
    /// The difference from the old nodes and edges to the new ones. An edge listed twice in
    /// one state counts once, with the facts of both (as the store keeps it).
    pub fn between(
        old_nodes: Vec<NodeRecord>,
        old_edges: Vec<EdgeSpec>,
        new_nodes: Vec<NodeRecord>,
        new_edges: Vec<EdgeSpec>,
    ) -> GraphDelta {
        let mut delta = GraphDelta::default();
        let mut old: BTreeMap<String, NodeRecord> =
            old_nodes.into_iter().map(|n| (n.id.clone(), n)).collect();
        for node in new_nodes {
            match old.remove(&node.id) {
                None => delta.nodes_added.push(node),
                Some(before) if before != node => delta.nodes_changed.push(node),
                Some(_) => {}
            }
        }
        delta.nodes_removed = old.into_values().collect();
        delta.nodes_added.sort_by(|a, b| a.id.cmp(&b.id));
        delta.nodes_changed.sort_by(|a, b| a.id.cmp(&b.id));

        let mut old = merged(old_edges);
        for (key, facts) in merged(new_edges) {
            match old.remove(&key) {
                None => delta.edges_added.push(spec(key, facts)),
                Some(before) if before != facts => delta.edges_changed.push(spec(key, facts)),
                Some(_) => {}
            }
        }
        delta.edges_removed = old
            .into_iter()
            .map(|(key, facts)| spec(key, facts))
            .collect();
        delta
    }

    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.nodes_added.is_empty()
            && self.nodes_removed.is_empty()
            && self.nodes_changed.is_empty()
            && self.edges_added.is_empty()
            && self.edges_removed.is_empty()
            && self.edges_changed.is_empty()
    }
}

/// Edges keyed by their ends and kind, duplicates folded together.
fn merged(edges: Vec<EdgeSpec>) -> BTreeMap<EdgeKey, EdgeFacts> {
    let mut out: BTreeMap<EdgeKey, EdgeFacts> = BTreeMap::new();
    for edge in edges {
        let key = (edge.source, edge.kind, edge.target);
        match out.entry(key) {
            std::collections::btree_map::Entry::Vacant(slot) => {
                slot.insert(edge.facts);
            }
            std::collections::btree_map::Entry::Occupied(mut slot) => {
                slot.get_mut().absorb(edge.facts);
            }
        }
    }
    out
}

fn spec((source, kind, target): EdgeKey, facts: EdgeFacts) -> EdgeSpec {
    EdgeSpec {
        source,
        target,
        kind,
        facts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::NodeKind;

    fn node(id: &str, start: u32) -> NodeRecord {
        NodeRecord::new(id, NodeKind::Function, id, "a.ts", start, start + 1)
    }

    fn call(source: &str, target: &str, count: u32) -> EdgeSpec {
        let mut edge = EdgeSpec::new(source, target, EdgeKind::Calls);
        edge.facts.count = count;
        edge
    }

    #[test]
    fn nodes_and_edges_are_sorted_into_added_removed_and_changed() {
        let delta = GraphDelta::between(
            vec![node("a", 1), node("b", 5), node("c", 9)],
            vec![call("a", "b", 1), call("a", "c", 1), call("b", "c", 1)],
            vec![node("d", 1), node("a", 1), node("b", 6)],
            vec![call("a", "b", 2), call("b", "c", 1), call("a", "d", 1)],
        );
        let ids = |nodes: &[NodeRecord]| nodes.iter().map(|n| n.id.clone()).collect::<Vec<_>>();
        assert_eq!(ids(&delta.nodes_added), ["d"]);
        assert_eq!(ids(&delta.nodes_removed), ["c"]);
        assert_eq!(ids(&delta.nodes_changed), ["b"]);
        assert_eq!(delta.edges_added, [call("a", "d", 1)]);
        assert_eq!(delta.edges_removed, [call("a", "c", 1)]);
        assert_eq!(delta.edges_changed, [call("a", "b", 2)]);
        assert!(!delta.is_empty());
    }

    #[test]
    fn an_edge_given_twice_counts_once_with_both_facts() {
        let delta = GraphDelta::between(
            vec![],
            vec![call("a", "b", 2)],
            vec![],
            vec![call("a", "b", 1), call("a", "b", 1)],
        );
        assert!(delta.is_empty(), "{delta:?}");
    }
}
