//! The path graph (see `crate::path`) as a petgraph view over [`GraphView`]: an edge's
//! source and target are the walking direction, not the stored one, because the member
//! IMPLEMENTS link is walked backwards (from an interface member to the class member that
//! implements it) and the `dispatch` CALLS edges are left out (a path goes through the
//! interface member instead).

use std::cell::RefCell;

use petgraph::Direction;
use petgraph::visit::{
    Data, EdgeRef, GraphBase, IntoEdgeReferences, IntoEdges, IntoEdgesDirected, IntoNeighbors,
    IntoNeighborsDirected, Visitable,
};
use rustc_hash::{FxHashMap, FxHashSet};
use tsgraph_engine::{EdgeKind, NodeKey, NodeKind, Resolution, Steps};

use super::view::{EveryEdge, GraphView};
use crate::emit::Hop;
use crate::kinds::EdgeKinds;

/// The path graph over a snapshot, with node kinds cached.
pub(crate) struct PathView<'g, 's> {
    graph: &'g GraphView<'s>,
    kinds: EdgeKinds,
    members: RefCell<FxHashMap<NodeKey, bool>>,
}

/// One hop of the path graph, `source` before `target` on a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PathEdge {
    pub(crate) source: NodeKey,
    pub(crate) target: NodeKey,
    pub(crate) hop: Hop,
}

impl EdgeRef for PathEdge {
    type NodeId = NodeKey;
    type EdgeId = (NodeKey, NodeKey);
    type Weight = Hop;
    fn source(&self) -> NodeKey {
        self.source
    }
    fn target(&self) -> NodeKey {
        self.target
    }
    fn weight(&self) -> &Hop {
        &self.hop
    }
    fn id(&self) -> (NodeKey, NodeKey) {
        (self.source, self.target)
    }
}

impl<'g, 's> PathView<'g, 's> {
    pub(crate) fn new(graph: &'g GraphView<'s>, kinds: EdgeKinds) -> PathView<'g, 's> {
        PathView {
            graph,
            kinds,
            members: RefCell::new(FxHashMap::default()),
        }
    }

    fn is_member(&self, key: NodeKey) -> bool {
        if let Some(&member) = self.members.borrow().get(&key) {
            return member;
        }
        // A failed read is kept by the graph view (the query fails); it is not cached.
        let Some(kind) = self.graph.node_kind(key) else {
            return false;
        };
        let member = matches!(kind, NodeKind::Method | NodeKind::Property);
        self.members.borrow_mut().insert(key, member);
        member
    }

    /// Whether a stored edge of `kind` on a node's own list is a hop of the path graph.
    fn keeps(&self, member: bool, kind: EdgeKind) -> bool {
        self.kinds.contains(kind)
            && match kind {
                // Member IMPLEMENTS is walked only backwards (the reversed list).
                EdgeKind::Implements => !member,
                EdgeKind::Calls | EdgeKind::References | EdgeKind::Extends | EdgeKind::Includes => {
                    true
                }
                _ => false,
            }
    }
}

/// The hops of one node in one walking direction: its stored list in that direction, then
/// (for a member) the member IMPLEMENTS links of the opposite list, reversed.
pub(crate) struct PathEdges<'v, 'g, 's> {
    view: &'v PathView<'g, 's>,
    node: NodeKey,
    direction: Direction,
    member: bool,
    stored: Steps<'s>,
    reversed: Option<Steps<'s>>,
}

impl Iterator for PathEdges<'_, '_, '_> {
    type Item = PathEdge;
    fn next(&mut self) -> Option<PathEdge> {
        let forward = self.direction == Direction::Outgoing;
        for step in self.stored.by_ref() {
            if !self.view.keeps(self.member, step.kind) {
                continue;
            }
            let mut may = false;
            if step.kind == EdgeKind::Calls {
                // An outgoing step always says how the call was resolved.
                let (caller, callee) = if forward {
                    (self.node, step.other)
                } else {
                    (step.other, self.node)
                };
                let resolution = self
                    .view
                    .graph
                    .call_resolution(step.resolution, caller, callee);
                if resolution == Some(Resolution::Dispatch) {
                    continue;
                }
                may = resolution.is_some_and(Resolution::is_may_call);
            }
            return Some(self.hop(step.other, step.kind, false, may));
        }
        let reversed = self.reversed.as_mut()?;
        reversed
            .find(|step| step.kind == EdgeKind::Implements)
            .map(|step| self.hop(step.other, EdgeKind::Implements, true, false))
    }
}

impl PathEdges<'_, '_, '_> {
    /// The hop between this node and `other`, oriented along the walk.
    fn hop(&self, other: NodeKey, kind: EdgeKind, reversed: bool, may: bool) -> PathEdge {
        let hop = Hop {
            kind,
            reversed,
            may,
        };
        match self.direction {
            Direction::Outgoing => PathEdge {
                source: self.node,
                target: other,
                hop,
            },
            Direction::Incoming => PathEdge {
                source: other,
                target: self.node,
                hop,
            },
        }
    }
}

impl<'v, 'g, 's> IntoEdgesDirected for &'v PathView<'g, 's> {
    type EdgesDirected = PathEdges<'v, 'g, 's>;
    fn edges_directed(self, node: NodeKey, direction: Direction) -> Self::EdgesDirected {
        let member = self.is_member(node);
        let implements = self.kinds.contains(EdgeKind::Implements);
        PathEdges {
            view: self,
            node,
            direction,
            member,
            stored: self.graph.steps(node, direction),
            // The interface member → implementing member link is stored from the
            // implementation: walking forward reads incoming IMPLEMENTS, backward outgoing.
            reversed: (implements && member).then(|| self.graph.steps(node, direction.opposite())),
        }
    }
}

impl<'v, 'g, 's> IntoEdges for &'v PathView<'g, 's> {
    type Edges = PathEdges<'v, 'g, 's>;
    fn edges(self, node: NodeKey) -> Self::Edges {
        self.edges_directed(node, Direction::Outgoing)
    }
}

/// The nodes one hop away along the walk.
pub(crate) struct PathNeighbors<'v, 'g, 's>(PathEdges<'v, 'g, 's>);

impl Iterator for PathNeighbors<'_, '_, '_> {
    type Item = NodeKey;
    fn next(&mut self) -> Option<NodeKey> {
        let direction = self.0.direction;
        self.0
            .next()
            .map(|edge| super::bfs::far_end(&edge, direction))
    }
}

impl<'v, 'g, 's> IntoNeighbors for &'v PathView<'g, 's> {
    type Neighbors = PathNeighbors<'v, 'g, 's>;
    fn neighbors(self, node: NodeKey) -> Self::Neighbors {
        PathNeighbors(self.edges_directed(node, Direction::Outgoing))
    }
}

impl<'v, 'g, 's> IntoNeighborsDirected for &'v PathView<'g, 's> {
    type NeighborsDirected = PathNeighbors<'v, 'g, 's>;
    fn neighbors_directed(self, node: NodeKey, direction: Direction) -> Self::NeighborsDirected {
        PathNeighbors(self.edges_directed(node, direction))
    }
}

impl<'v, 'g, 's> IntoEdgeReferences for &'v PathView<'g, 's> {
    type EdgeRef = PathEdge;
    type EdgeReferences = EveryEdge<&'v PathView<'g, 's>>;
    fn edge_references(self) -> Self::EdgeReferences {
        EveryEdge::new(self, self.graph.key_bound_u32())
    }
}

impl GraphBase for PathView<'_, '_> {
    type NodeId = NodeKey;
    type EdgeId = (NodeKey, NodeKey);
}

impl Data for PathView<'_, '_> {
    type NodeWeight = ();
    type EdgeWeight = Hop;
}

impl Visitable for PathView<'_, '_> {
    type Map = FxHashSet<NodeKey>;
    fn visit_map(&self) -> Self::Map {
        FxHashSet::default()
    }
    fn reset_map(&self, map: &mut Self::Map) {
        map.clear();
    }
}
