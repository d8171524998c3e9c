//! The snapshot as petgraph sees it: node keys as node IDs, adjacency entries as edges, both
//! directions read from the graph file through the overlay. The walks of callers, callees,
//! impact, neighbors and path run over this view (filtered by edge kind with petgraph's
//! `EdgeFiltered`), so they read the graph one way.
//!
//! petgraph's traits are infallible and store reads are not: the view keeps the first read
//! error, ends the iterator it was reading, and the planner turns the kept error into the
//! query's error when the traversal returns ([`GraphView::check`]). A traversal that saw an
//! error never reaches a sink.

use std::cell::{Cell, RefCell};

use petgraph::Direction;
use petgraph::visit::{
    Data, EdgeRef, GraphBase, IntoEdgeReferences, IntoEdges, IntoEdgesDirected, IntoNeighbors,
    IntoNeighborsDirected, IntoNodeIdentifiers, NodeCount, NodeIndexable, Visitable,
};
use rustc_hash::FxHashSet;
use tsgraph_engine::{EdgeKind, NodeKey, NodeKind, Resolution, Snapshot, Step, Steps};

use crate::error::QueryError;

/// A snapshot's graph under petgraph's visit traits (implemented for `&GraphView`).
pub(crate) struct GraphView<'s> {
    snapshot: &'s Snapshot,
    failure: RefCell<Option<QueryError>>,
    lists: Cell<usize>,
}

/// The weight of an edge: its kind, and for CALLS, how the target was found when the list
/// it was read from says (an outgoing list always does; see [`tsgraph_engine::Step`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Link {
    pub(crate) kind: EdgeKind,
    pub(crate) resolution: Option<Resolution>,
}

/// One stored edge, as petgraph's `EdgeRef`: `source` and `target` are the stored edge's
/// ends whichever direction it was read in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Edge {
    pub(crate) source: NodeKey,
    pub(crate) target: NodeKey,
    pub(crate) link: Link,
}

impl Edge {
    /// The edge `step` read from `node`'s list in `direction`.
    fn read(node: NodeKey, direction: Direction, step: Step) -> Edge {
        let link = Link {
            kind: step.kind,
            resolution: step.resolution,
        };
        match direction {
            Direction::Outgoing => Edge {
                source: node,
                target: step.other,
                link,
            },
            Direction::Incoming => Edge {
                source: step.other,
                target: node,
                link,
            },
        }
    }
}

impl EdgeRef for Edge {
    type NodeId = NodeKey;
    type EdgeId = (NodeKey, NodeKey, EdgeKind);
    type Weight = Link;

    fn source(&self) -> NodeKey {
        self.source
    }
    fn target(&self) -> NodeKey {
        self.target
    }
    fn weight(&self) -> &Link {
        &self.link
    }
    fn id(&self) -> Self::EdgeId {
        (self.source, self.target, self.link.kind)
    }
}

impl<'s> GraphView<'s> {
    pub(crate) fn new(snapshot: &'s Snapshot) -> GraphView<'s> {
        GraphView {
            snapshot,
            failure: RefCell::new(None),
            lists: Cell::new(0),
        }
    }

    /// The first read error since the last check, as the query's error.
    pub(crate) fn check(&self) -> Result<(), QueryError> {
        match self.failure.borrow_mut().take() {
            Some(err) => Err(err),
            None => Ok(()),
        }
    }

    /// How many adjacency lists were read (the planner's measure of work).
    pub(crate) fn lists_read(&self) -> usize {
        self.lists.get()
    }

    /// `node`'s adjacency in `direction`; empty after a read error, which is kept.
    pub(crate) fn steps(&self, node: NodeKey, direction: Direction) -> Steps<'s> {
        if self.failure.borrow().is_some() {
            return Steps::empty();
        }
        self.lists.set(self.lists.get() + 1);
        let read = match direction {
            Direction::Outgoing => self.snapshot.out_edges(node),
            Direction::Incoming => self.snapshot.in_edges(node),
        };
        match read.and_then(|list| list.into_steps()) {
            Ok(steps) => steps,
            Err(err) => {
                self.fail(err);
                Steps::empty()
            }
        }
    }

    fn fail(&self, err: impl Into<QueryError>) {
        self.failure.borrow_mut().get_or_insert(err.into());
    }

    /// The kind of node `key`; `None` after a read error (kept), or for a key with no node
    /// (kept as [`QueryError::MissingNode`]: an edge named it).
    pub(crate) fn node_kind(&self, key: NodeKey) -> Option<NodeKind> {
        let read = self.snapshot.node(key).and_then(|guard| match guard {
            Some(guard) => guard.view().map(|view| Some(view.kind())),
            None => Ok(None),
        });
        match read {
            Ok(Some(kind)) => Some(kind),
            Ok(None) => {
                self.fail(QueryError::MissingNode(key.0));
                None
            }
            Err(err) => {
                self.fail(err);
                None
            }
        }
    }

    /// How the CALLS edge `source → target` was found: as the entry read says (`read`), or
    /// else, for an incoming entry that does not say, from the source's outgoing list; `None`
    /// when there is no such edge, or after a read error (kept).
    pub(crate) fn call_resolution(
        &self,
        read: Option<Resolution>,
        source: NodeKey,
        target: NodeKey,
    ) -> Option<Resolution> {
        if read.is_some() {
            return read;
        }
        let read = self.snapshot.out_edges(source).and_then(|list| {
            Ok(list
                .find(EdgeKind::Calls, target)?
                .map(|edge| edge.resolution()))
        });
        read.unwrap_or_else(|err| {
            self.fail(err);
            None
        })
    }

    /// [`GraphView::key_bound`] as a key.
    pub(crate) fn key_bound_u32(&self) -> u32 {
        u32::try_from(self.key_bound()).unwrap_or(u32::MAX)
    }

    fn key_bound(&self) -> usize {
        match self.snapshot.key_bound() {
            Ok(bound) => bound as usize,
            Err(err) => {
                self.fail(err);
                0
            }
        }
    }
}

/// The edges of one node in one direction.
pub(crate) struct Edges<'s> {
    node: NodeKey,
    direction: Direction,
    steps: Steps<'s>,
}

impl Iterator for Edges<'_> {
    type Item = Edge;
    fn next(&mut self) -> Option<Edge> {
        let step = self.steps.next()?;
        Some(Edge::read(self.node, self.direction, step))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.steps.size_hint()
    }
}

/// The nodes at the other end of one node's edges in one direction.
pub(crate) struct Neighbors<'s>(Steps<'s>);

impl Iterator for Neighbors<'_> {
    type Item = NodeKey;
    fn next(&mut self) -> Option<NodeKey> {
        self.0.next().map(|step| step.other)
    }
}

/// Every edge of a view, by the key of the node it leaves (a scan of every outgoing list):
/// `edge_references` of both the graph view and the path view.
pub(crate) struct EveryEdge<G: IntoEdgesDirected<NodeId = NodeKey>> {
    graph: G,
    next_node: u32,
    bound: u32,
    current: Option<G::EdgesDirected>,
}

impl<G: IntoEdgesDirected<NodeId = NodeKey>> EveryEdge<G> {
    /// The edges of `graph`'s nodes below `bound`.
    pub(crate) fn new(graph: G, bound: u32) -> EveryEdge<G> {
        EveryEdge {
            graph,
            next_node: 0,
            bound,
            current: None,
        }
    }
}

impl<G: IntoEdgesDirected<NodeId = NodeKey>> Iterator for EveryEdge<G> {
    type Item = G::EdgeRef;
    fn next(&mut self) -> Option<G::EdgeRef> {
        loop {
            if let Some(edge) = self.current.as_mut().and_then(Iterator::next) {
                return Some(edge);
            }
            if self.next_node >= self.bound {
                return None;
            }
            let node = NodeKey(self.next_node);
            self.next_node += 1;
            self.current = Some(self.graph.edges_directed(node, Direction::Outgoing));
        }
    }
}

impl GraphBase for GraphView<'_> {
    type NodeId = NodeKey;
    type EdgeId = (NodeKey, NodeKey, EdgeKind);
}

impl Data for GraphView<'_> {
    type NodeWeight = ();
    type EdgeWeight = Link;
}

impl<'s> IntoNeighbors for &GraphView<'s> {
    type Neighbors = Neighbors<'s>;
    fn neighbors(self, node: NodeKey) -> Neighbors<'s> {
        Neighbors(self.steps(node, Direction::Outgoing))
    }
}

impl<'s> IntoNeighborsDirected for &GraphView<'s> {
    type NeighborsDirected = Neighbors<'s>;
    fn neighbors_directed(self, node: NodeKey, direction: Direction) -> Neighbors<'s> {
        Neighbors(self.steps(node, direction))
    }
}

impl<'g, 's> IntoEdgeReferences for &'g GraphView<'s> {
    type EdgeRef = Edge;
    type EdgeReferences = EveryEdge<&'g GraphView<'s>>;
    fn edge_references(self) -> Self::EdgeReferences {
        EveryEdge::new(self, self.key_bound_u32())
    }
}

impl<'s> IntoEdges for &GraphView<'s> {
    type Edges = Edges<'s>;
    fn edges(self, node: NodeKey) -> Edges<'s> {
        self.edges_directed(node, Direction::Outgoing)
    }
}

impl<'s> IntoEdgesDirected for &GraphView<'s> {
    type EdgesDirected = Edges<'s>;
    fn edges_directed(self, node: NodeKey, direction: Direction) -> Edges<'s> {
        Edges {
            node,
            direction,
            steps: self.steps(node, direction),
        }
    }
}

impl IntoNodeIdentifiers for &GraphView<'_> {
    type NodeIdentifiers = std::vec::IntoIter<NodeKey>;
    fn node_identifiers(self) -> Self::NodeIdentifiers {
        match self.snapshot.node_keys() {
            Ok(keys) => keys.into_iter(),
            Err(err) => {
                self.fail(err);
                Vec::new().into_iter()
            }
        }
    }
}

impl NodeIndexable for GraphView<'_> {
    fn node_bound(&self) -> usize {
        self.key_bound()
    }
    fn to_index(&self, node: NodeKey) -> usize {
        node.0 as usize
    }
    fn from_index(&self, index: usize) -> NodeKey {
        NodeKey(u32::try_from(index).unwrap_or(u32::MAX))
    }
}

impl NodeCount for GraphView<'_> {
    fn node_count(&self) -> usize {
        match self.snapshot.node_count() {
            Ok(count) => usize::try_from(count).unwrap_or(usize::MAX),
            Err(err) => {
                self.fail(err);
                0
            }
        }
    }
}

impl Visitable for GraphView<'_> {
    /// A hash set rather than petgraph's usual bit set: a bounded traversal touches a few
    /// hundred nodes of a million, and a bit set over every key would be cleared per query.
    type Map = FxHashSet<NodeKey>;
    fn visit_map(&self) -> Self::Map {
        FxHashSet::default()
    }
    fn reset_map(&self, map: &mut Self::Map) {
        map.clear();
    }
}
