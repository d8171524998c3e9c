//! Shortest paths over any graph under petgraph's visit traits: a bidirectional
//! breadth-first search, and Yen's algorithm on top of it for the k shortest loopless paths.
//! petgraph's path algorithms (`dijkstra`, `astar`, `k_shortest_path`) search from one end
//! and give lengths, not the paths' edges; meeting in the middle reads far fewer adjacency
//! lists on a graph whose hubs have thousands of callers, so it is written here, once.

use petgraph::Direction;
use petgraph::visit::{EdgeFiltered, EdgeRef, IntoEdgesDirected};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use tsgraph_engine::NodeKey;

use super::bfs::far_end;
use crate::emit::Hop;
use crate::sink::Stop;

/// A path: its nodes and the hop between each two.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Path {
    pub(crate) nodes: Vec<NodeKey>,
    pub(crate) hops: Vec<Hop>,
}

/// The bounds of one search and what it cost.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Search {
    /// Longest path, in hops.
    pub(crate) max_depth: u32,
    /// Nodes one search may visit.
    pub(crate) max_nodes: usize,
    /// Nodes visited by every search so far.
    pub(crate) visited: usize,
    /// Whether a search gave up at `max_nodes`.
    pub(crate) truncated: bool,
    /// Whether a search ended at `max_depth` with both frontiers still open (nodes whose
    /// edges were not read: a longer path may exist).
    pub(crate) depth_cut: bool,
}

impl Search {
    /// Why the searches ended: complete when the `wanted` paths were found (each search
    /// stops at its shortest path); otherwise the bound that cut a search, if any — the
    /// node limit first, then the depth bound (a longer path may exist).
    pub(crate) fn stop(&self, found: usize, wanted: usize) -> Stop {
        if found >= wanted {
            Stop::Complete
        } else if self.truncated {
            Stop::NodeLimit
        } else if self.depth_cut {
            Stop::DepthBound
        } else {
            Stop::Complete
        }
    }
}

/// node → (its neighbour towards the end the search started from, with the hop; hops from
/// that end).
type Seen = HashMap<NodeKey, (Option<(NodeKey, Hop)>, u32)>;

/// A shortest path from `from` to `to`, searched from both ends, always widening the
/// smaller frontier. Among meetings at one level, the one with the shortest remainder wins,
/// then the lowest key, so the answer does not depend on hash order.
pub(crate) fn shortest<G>(graph: G, from: NodeKey, to: NodeKey, search: &mut Search) -> Option<Path>
where
    G: IntoEdgesDirected<NodeId = NodeKey, EdgeWeight = Hop>,
{
    if from == to {
        return Some(Path {
            nodes: vec![from],
            hops: Vec::new(),
        });
    }
    let mut before: Seen = HashMap::from_iter([(from, (None, 0))]);
    let mut after: Seen = HashMap::from_iter([(to, (None, 0))]);
    let (mut front, mut back) = (vec![from], vec![to]);
    let (mut front_depth, mut back_depth) = (0u32, 0u32);
    let mut meeting: Option<NodeKey> = None;
    let mut cut = false;
    while meeting.is_none()
        && !front.is_empty()
        && !back.is_empty()
        && front_depth + back_depth < search.max_depth
    {
        let forward = front.len() <= back.len();
        let (frontier, seen, other, depth, direction) = if forward {
            (
                &mut front,
                &mut before,
                &after,
                front_depth + 1,
                Direction::Outgoing,
            )
        } else {
            (
                &mut back,
                &mut after,
                &before,
                back_depth + 1,
                Direction::Incoming,
            )
        };
        let mut next = Vec::new();
        let mut best: Option<(u32, u32)> = None;
        'widen: for &key in frontier.iter() {
            for edge in graph.edges_directed(key, direction) {
                let reached = far_end(&edge, direction);
                if seen.contains_key(&reached) {
                    continue;
                }
                if seen.len() + other.len() >= search.max_nodes {
                    cut = true;
                    break 'widen;
                }
                seen.insert(reached, (Some((key, *edge.weight())), depth));
                if let Some((_, rest)) = other.get(&reached) {
                    let candidate = (*rest, reached.0);
                    if best.is_none_or(|b| candidate < b) {
                        best = Some(candidate);
                    }
                }
                next.push(reached);
            }
        }
        if cut {
            break;
        }
        meeting = best.map(|(_, key)| NodeKey(key));
        *frontier = next;
        if forward {
            front_depth += 1;
        } else {
            back_depth += 1;
        }
    }
    search.visited += before.len() + after.len();
    search.depth_cut |= meeting.is_none() && !cut && !front.is_empty() && !back.is_empty();
    search.truncated |= cut;
    if cut {
        return None;
    }
    meeting.map(|meet| joined(meet, &before, &after))
}

/// The path through `meet`: back along `before` to the start, forward along `after` to the
/// end.
fn joined(meet: NodeKey, before: &Seen, after: &Seen) -> Path {
    let mut nodes = vec![meet];
    let mut hops = Vec::new();
    let mut current = meet;
    while let Some((Some((previous, hop)), _)) = before.get(&current) {
        nodes.push(*previous);
        hops.push(*hop);
        current = *previous;
    }
    nodes.reverse();
    hops.reverse();
    current = meet;
    while let Some((Some((next, hop)), _)) = after.get(&current) {
        nodes.push(*next);
        hops.push(*hop);
        current = *next;
    }
    Path { nodes, hops }
}

/// Yen's algorithm: the `k` shortest loopless paths, shortest first; ties by node keys, so
/// answers are stable. Each spur search runs on the graph with the root path's nodes and
/// the already-taken next hops filtered out (petgraph's `EdgeFiltered`).
pub(crate) fn k_shortest<G>(
    graph: G,
    from: NodeKey,
    to: NodeKey,
    k: usize,
    search: &mut Search,
) -> Vec<Path>
where
    G: IntoEdgesDirected<NodeId = NodeKey, EdgeWeight = Hop>,
{
    let Some(first) = shortest(graph, from, to, search) else {
        return Vec::new();
    };
    let mut found = vec![first];
    let mut candidates: Vec<Path> = Vec::new();
    while found.len() < k {
        let Some(last) = found.last().cloned() else {
            break;
        };
        for spur_index in 0..last.nodes.len().saturating_sub(1) {
            let root = &last.nodes[..=spur_index];
            let mut banned_edges = HashSet::default();
            for path in &found {
                if path.nodes.len() > spur_index + 1 && path.nodes[..=spur_index] == *root {
                    banned_edges.insert((path.nodes[spur_index], path.nodes[spur_index + 1]));
                }
            }
            let banned_nodes: HashSet<NodeKey> = root[..spur_index].iter().copied().collect();
            let spur_graph = EdgeFiltered::from_fn(graph, |edge: G::EdgeRef| {
                !banned_nodes.contains(&edge.source())
                    && !banned_nodes.contains(&edge.target())
                    && !banned_edges.contains(&(edge.source(), edge.target()))
            });
            let spur = shortest(&spur_graph, last.nodes[spur_index], to, search);
            let Some(spur) = spur else { continue };
            let mut nodes = root[..spur_index].to_vec();
            nodes.extend(&spur.nodes);
            let mut hops = last.hops[..spur_index].to_vec();
            hops.extend(&spur.hops);
            let path = Path { nodes, hops };
            if path.hops.len() as u32 <= search.max_depth
                && !found.contains(&path)
                && !candidates.contains(&path)
            {
                candidates.push(path);
            }
        }
        let Some(best) = candidates
            .iter()
            .enumerate()
            .min_by(|(_, a), (_, b)| (a.hops.len(), &a.nodes).cmp(&(b.hops.len(), &b.nodes)))
            .map(|(i, _)| i)
        else {
            break;
        };
        found.push(candidates.swap_remove(best));
    }
    found
}
