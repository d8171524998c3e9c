//! Depth-bounded breadth-first search that records, for every node it reaches, its depth
//! and the edge it was first reached through. petgraph's `Bfs` yields bare nodes, with no
//! depth, no via edge and no bound on depth or count, so this one is written once over the
//! same visit traits petgraph's algorithms use; the caller filters edge kinds with
//! petgraph's `EdgeFiltered`.

use petgraph::Direction;
use petgraph::visit::{EdgeRef, IntoEdgesDirected, VisitMap, Visitable};

use crate::sink::Stop;

/// Where a traversal must stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Bounds {
    /// Hops from the root.
    pub(crate) depth: u32,
    /// Nodes reached, the root not counted.
    pub(crate) nodes: usize,
}

/// A node reached for the first time.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Reached<N, E> {
    pub(crate) node: N,
    /// Hops from the root.
    pub(crate) depth: u32,
    /// The node it was reached from.
    pub(crate) parent: N,
    /// The edge between them, as stored.
    pub(crate) edge: E,
    /// The direction the edge was read in from `parent` (incoming: the stored edge points
    /// from this node to `parent`).
    pub(crate) direction: Direction,
}

/// The containers a walk fills: the nodes it reached and its current and next levels
/// (emptied as it starts; a caller that keeps them between walks keeps their capacity).
pub(crate) struct Levels<M, N> {
    pub(crate) seen: M,
    pub(crate) frontier: Vec<N>,
    pub(crate) next: Vec<N>,
}

/// Walks from `root` along `directions` (in that order at every node), level by level, and
/// hands each newly reached node to `reach`, in discovery order. Stops with
/// [`Stop::NodeLimit`] when one more node would pass `bounds.nodes`; at `bounds.depth`
/// it looks one hop further without reaching anything, to say whether the depth bound cut
/// the answer ([`Stop::DepthBound`]) or the walk was complete anyway.
pub(crate) fn bounded_bfs<G>(
    graph: G,
    root: G::NodeId,
    directions: &[Direction],
    bounds: Bounds,
    reach: impl FnMut(Reached<G::NodeId, G::EdgeRef>),
) -> Stop
where
    G: IntoEdgesDirected + Visitable,
{
    let mut levels = Levels {
        seen: graph.visit_map(),
        frontier: Vec::new(),
        next: Vec::new(),
    };
    bounded_bfs_in(graph, root, directions, bounds, &mut levels, reach)
}

/// [`bounded_bfs`] filling `levels`, which a caller may reuse for the next walk.
pub(crate) fn bounded_bfs_in<G>(
    graph: G,
    root: G::NodeId,
    directions: &[Direction],
    bounds: Bounds,
    levels: &mut Levels<G::Map, G::NodeId>,
    mut reach: impl FnMut(Reached<G::NodeId, G::EdgeRef>),
) -> Stop
where
    G: IntoEdgesDirected + Visitable,
{
    let Levels {
        seen,
        frontier,
        next,
    } = levels;
    graph.reset_map(seen);
    seen.visit(root);
    frontier.clear();
    next.clear();
    frontier.push(root);
    let mut count = 0;
    for depth in 1..=bounds.depth {
        for &parent in frontier.iter() {
            for &direction in directions {
                for edge in graph.edges_directed(parent, direction) {
                    let node = far_end(&edge, direction);
                    if seen.is_visited(&node) {
                        continue;
                    }
                    if count == bounds.nodes {
                        return Stop::NodeLimit;
                    }
                    seen.visit(node);
                    count += 1;
                    reach(Reached {
                        node,
                        depth,
                        parent,
                        edge,
                        direction,
                    });
                    next.push(node);
                }
            }
        }
        if next.is_empty() {
            return Stop::Complete;
        }
        std::mem::swap(frontier, next);
        next.clear();
    }
    let open = frontier.iter().any(|&parent| {
        directions.iter().any(|&direction| {
            graph
                .edges_directed(parent, direction)
                .any(|edge| !seen.is_visited(&far_end(&edge, direction)))
        })
    });
    if open {
        Stop::DepthBound
    } else {
        Stop::Complete
    }
}

/// The end of `edge` away from the node whose list in `direction` it was read from.
pub(crate) fn far_end<E: EdgeRef>(edge: &E, direction: Direction) -> E::NodeId {
    match direction {
        Direction::Outgoing => edge.target(),
        Direction::Incoming => edge.source(),
    }
}

#[cfg(test)]
mod tests {
    use petgraph::graph::DiGraph;

    use super::*;

    /// a → b → c → d, a → c (a petgraph graph lists edges newest first: a's are b, c).
    fn chain() -> DiGraph<(), ()> {
        let mut graph = DiGraph::new();
        let [a, b, c, d] = [(); 4].map(|()| graph.add_node(()));
        graph.extend_with_edges([(a, c), (a, b), (b, c), (c, d)]);
        graph
    }

    fn walk(graph: &DiGraph<(), ()>, bounds: Bounds) -> (Vec<(usize, u32, usize)>, Stop) {
        let mut reached = Vec::new();
        let stop = bounded_bfs(graph, 0.into(), &[Direction::Outgoing], bounds, |r| {
            reached.push((r.node.index(), r.depth, r.parent.index()))
        });
        (reached, stop)
    }

    #[test]
    fn levels_are_walked_in_order_with_the_first_parent_kept() {
        let (reached, stop) = walk(&chain(), Bounds { depth: 9, nodes: 9 });
        assert_eq!(reached, vec![(1, 1, 0), (2, 1, 0), (3, 2, 2)]);
        assert_eq!(stop, Stop::Complete);
    }

    #[test]
    fn the_depth_bound_says_whether_more_lay_beyond() {
        let (reached, stop) = walk(&chain(), Bounds { depth: 1, nodes: 9 });
        assert_eq!(reached.len(), 2);
        assert_eq!(stop, Stop::DepthBound);
        // At depth 2 everything is reached: the bound cut nothing.
        assert_eq!(
            walk(&chain(), Bounds { depth: 2, nodes: 9 }).1,
            Stop::Complete
        );
    }

    #[test]
    fn the_node_limit_stops_before_the_node_past_it() {
        let (reached, stop) = walk(&chain(), Bounds { depth: 9, nodes: 2 });
        assert_eq!(reached.len(), 2);
        assert_eq!(stop, Stop::NodeLimit);
        // Exactly as many nodes as the limit: complete, not cut.
        assert_eq!(
            walk(&chain(), Bounds { depth: 9, nodes: 3 }).1,
            Stop::Complete
        );
    }

    #[test]
    fn incoming_edges_walk_backwards() {
        let graph = chain();
        let mut reached = Vec::new();
        bounded_bfs(
            &graph,
            3.into(),
            &[Direction::Incoming],
            Bounds { depth: 1, nodes: 9 },
            |r| reached.push((r.node.index(), r.edge.source().index())),
        );
        assert_eq!(reached, vec![(2, 2)]);
    }
}
