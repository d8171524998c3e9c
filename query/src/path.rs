//! Shortest paths: a bidirectional breadth-first search over the edges along which control
//! or data flows, and Yen's algorithm on top of it for the k shortest distinct paths.
//!
//! The path graph: CALLS (except the `dispatch` edges a call through an interface member
//! adds to each implementation — the path goes through the interface member instead),
//! REFERENCES, EXTENDS, INCLUDES, IMPLEMENTS from a class to its interface, and the member
//! IMPLEMENTS link walked backwards, from an interface member to the class member that
//! implements it.

use std::collections::{HashMap, HashSet};

use tsgraph_engine::{EdgeKind, NodeKey, NodeKind, Resolution, Snapshot};

use crate::Query;
use crate::emit::{Edges, Hop, Item, Order, Section, emit};
use crate::error::QueryError;
use crate::kinds::EdgeKinds;
use crate::order::existing;
use crate::sink::{Direction, Header, QueryKind, ResultSink, Summary};
use crate::traverse::header;

/// Limits of a path search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathOptions {
    /// Longest path searched, in hops (default 20).
    pub max_depth: u32,
    /// Nodes visited at most by one search (default 100 000); past it the search gives up
    /// and says it was truncated.
    pub max_nodes: usize,
    /// How many shortest distinct paths (default 1, at most [`PathOptions::MAX_K`]).
    pub k: usize,
    /// The edge kinds followed; `None` for the default path graph.
    pub edge_kinds: Option<EdgeKinds>,
}

impl PathOptions {
    /// The most paths one query returns.
    pub const MAX_K: usize = 20;
}

impl Default for PathOptions {
    fn default() -> Self {
        PathOptions {
            max_depth: 20,
            max_nodes: 100_000,
            k: 1,
            edge_kinds: None,
        }
    }
}

/// A path: its nodes and the hop between each two.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Path {
    nodes: Vec<NodeKey>,
    hops: Vec<Hop>,
}

/// What one search may not use (Yen's spur searches).
#[derive(Default)]
struct Bans {
    nodes: HashSet<NodeKey>,
    edges: HashSet<(NodeKey, NodeKey)>,
}

/// The path graph over a snapshot, with node kinds cached.
struct PathGraph<'s> {
    snapshot: &'s Snapshot,
    kinds: EdgeKinds,
    members: HashMap<NodeKey, bool>,
}

impl PathGraph<'_> {
    fn is_member(&mut self, key: NodeKey) -> Result<bool, QueryError> {
        if let Some(member) = self.members.get(&key) {
            return Ok(*member);
        }
        let guard = existing(self.snapshot, key)?;
        let member = matches!(guard.view()?.kind(), NodeKind::Method | NodeKind::Property);
        self.members.insert(key, member);
        Ok(member)
    }

    /// The nodes one hop after `key` (`forward`) or before it, with the hop.
    fn neighbours(
        &mut self,
        key: NodeKey,
        forward: bool,
        out: &mut Vec<(NodeKey, Hop)>,
    ) -> Result<(), QueryError> {
        out.clear();
        let member = self.is_member(key)?;
        let implements = self.kinds.contains(EdgeKind::Implements);
        // Edges stored in the walking direction.
        let stored = if forward {
            self.snapshot.out_edges(key)?
        } else {
            self.snapshot.in_edges(key)?
        };
        for edge in stored.edges()? {
            let kind = edge.kind();
            if !self.kinds.contains(kind) {
                continue;
            }
            match kind {
                EdgeKind::Calls if forward && edge.resolution() == Resolution::Dispatch => continue,
                EdgeKind::Calls if !forward && self.is_dispatch(edge.other(), key)? => continue,
                // Member IMPLEMENTS is walked only backwards (below).
                EdgeKind::Implements if member => continue,
                EdgeKind::Calls
                | EdgeKind::References
                | EdgeKind::Extends
                | EdgeKind::Includes
                | EdgeKind::Implements => {}
                _ => continue,
            }
            out.push((
                edge.other(),
                Hop {
                    kind,
                    reversed: false,
                },
            ));
        }
        // The interface member → implementing member link: stored from the implementation,
        // so walking forward reads incoming IMPLEMENTS, and backward reads outgoing ones.
        if implements && member {
            let reversed = if forward {
                self.snapshot.in_edges(key)?
            } else {
                self.snapshot.out_edges(key)?
            };
            for edge in reversed.edges()? {
                if edge.kind() == EdgeKind::Implements {
                    out.push((
                        edge.other(),
                        Hop {
                            kind: EdgeKind::Implements,
                            reversed: true,
                        },
                    ));
                }
            }
        }
        Ok(())
    }

    /// Whether the CALLS edge `source → target` is a dispatch edge (incoming lists carry
    /// no facts, so the source's outgoing list says).
    fn is_dispatch(&self, source: NodeKey, target: NodeKey) -> Result<bool, QueryError> {
        let list = self.snapshot.out_edges(source)?;
        Ok(list
            .find(EdgeKind::Calls, target)?
            .is_some_and(|e| e.resolution() == Resolution::Dispatch))
    }

    /// A shortest path from `from` to `to` avoiding `bans`, searched from both ends; the
    /// flag says the search gave up at the node limit.
    fn shortest(
        &mut self,
        from: NodeKey,
        to: NodeKey,
        bans: &Bans,
        options: &PathOptions,
    ) -> Result<(Option<Path>, bool), QueryError> {
        if from == to {
            return Ok((
                Some(Path {
                    nodes: vec![from],
                    hops: Vec::new(),
                }),
                false,
            ));
        }
        // node → (previous node and hop, hops from `from`) and node → (next node and hop,
        // hops to `to`).
        type Seen = HashMap<NodeKey, (Option<(NodeKey, Hop)>, u32)>;
        let mut before: Seen = HashMap::from([(from, (None, 0))]);
        let mut after: Seen = HashMap::from([(to, (None, 0))]);
        let (mut front, mut back) = (vec![from], vec![to]);
        let (mut front_depth, mut back_depth) = (0u32, 0u32);
        let mut scratch = Vec::new();
        let mut truncated = false;
        let mut meeting: Option<NodeKey> = None;
        while meeting.is_none()
            && !front.is_empty()
            && !back.is_empty()
            && front_depth + back_depth < options.max_depth
        {
            let forward = front.len() <= back.len();
            let (frontier, seen, other, depth) = if forward {
                (&mut front, &mut before, &after, front_depth + 1)
            } else {
                (&mut back, &mut after, &before, back_depth + 1)
            };
            let mut next = Vec::new();
            let mut best: Option<(u32, u32)> = None;
            for &key in frontier.iter() {
                self.neighbours(key, forward, &mut scratch)?;
                for &(other_key, hop) in &scratch {
                    let edge = if forward {
                        (key, other_key)
                    } else {
                        (other_key, key)
                    };
                    if bans.nodes.contains(&other_key) || bans.edges.contains(&edge) {
                        continue;
                    }
                    if seen.contains_key(&other_key) {
                        continue;
                    }
                    if seen.len() + other.len() >= options.max_nodes {
                        truncated = true;
                        break;
                    }
                    seen.insert(other_key, (Some((key, hop)), depth));
                    if let Some((_, rest)) = other.get(&other_key) {
                        // The meeting with the shortest remainder wins; among equals the
                        // lowest key, so the answer does not depend on hash order.
                        let candidate = (*rest, other_key.0);
                        if best.is_none_or(|b| candidate < b) {
                            best = Some(candidate);
                        }
                    }
                    next.push(other_key);
                }
                if truncated {
                    break;
                }
            }
            if truncated {
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
        let Some(meet) = meeting else {
            return Ok((None, truncated));
        };
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
        Ok((Some(Path { nodes, hops }), false))
    }

    /// Yen's algorithm: the `k` shortest loopless paths, shortest first.
    fn k_shortest(
        &mut self,
        from: NodeKey,
        to: NodeKey,
        options: &PathOptions,
    ) -> Result<(Vec<Path>, bool), QueryError> {
        let (first, mut truncated) = self.shortest(from, to, &Bans::default(), options)?;
        let Some(first) = first else {
            return Ok((Vec::new(), truncated));
        };
        let mut found = vec![first];
        let mut candidates: Vec<Path> = Vec::new();
        let k = options.k.clamp(1, PathOptions::MAX_K);
        while found.len() < k {
            let Some(last) = found.last().cloned() else {
                break;
            };
            for spur_index in 0..last.nodes.len().saturating_sub(1) {
                let root = &last.nodes[..=spur_index];
                let mut bans = Bans::default();
                for path in &found {
                    if path.nodes.len() > spur_index + 1 && path.nodes[..=spur_index] == *root {
                        bans.edges
                            .insert((path.nodes[spur_index], path.nodes[spur_index + 1]));
                    }
                }
                bans.nodes.extend(root[..spur_index].iter().copied());
                let (spur, spur_truncated) =
                    self.shortest(last.nodes[spur_index], to, &bans, options)?;
                truncated |= spur_truncated;
                let Some(spur) = spur else { continue };
                let mut nodes = root[..spur_index].to_vec();
                nodes.extend(&spur.nodes);
                let mut hops = last.hops[..spur_index].to_vec();
                hops.extend(&spur.hops);
                let path = Path { nodes, hops };
                if path.hops.len() as u32 <= options.max_depth
                    && !found.contains(&path)
                    && !candidates.contains(&path)
                {
                    candidates.push(path);
                }
            }
            // The shortest candidate next; ties by node keys, so answers are stable.
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
        Ok((found, truncated))
    }
}

impl Query<'_> {
    /// The shortest path from `from` to `to` (or the `k` shortest distinct ones) over the
    /// path graph (see the module docs), each hop with its edge kind. Each path is one
    /// section: its nodes in path order (depth = position), then its edges.
    pub fn path(
        &self,
        from: NodeKey,
        to: NodeKey,
        options: &PathOptions,
        sink: &mut dyn ResultSink,
    ) -> Result<Summary, QueryError> {
        let snapshot = self.snapshot();
        let kinds = options.edge_kinds.unwrap_or(EdgeKinds::PATH);
        let mut graph = PathGraph {
            snapshot,
            kinds,
            members: HashMap::new(),
        };
        let (paths, truncated) = graph.k_shortest(from, to, options)?;
        let sections: Vec<Section> = paths
            .into_iter()
            .map(|path| Section {
                target: None,
                items: path
                    .nodes
                    .iter()
                    .enumerate()
                    .map(|(position, key)| Item {
                        depth: u32::try_from(position).unwrap_or(u32::MAX),
                        ..Item::plain(*key)
                    })
                    .collect(),
                hops: path.hops,
                unresolved: 0,
            })
            .collect();
        let from_guard = existing(snapshot, from)?;
        let to_guard = existing(snapshot, to)?;
        let header = Header {
            target: Some(to_guard.view()?),
            depth: options.max_depth,
            direction: Direction::Out,
            edge_kinds: kinds,
            ..header(QueryKind::Path, Some(from_guard.view()?))
        };
        let summary = Summary {
            truncated: truncated && sections.is_empty(),
            limit: options.max_nodes,
            found: !sections.is_empty(),
            stopped: false,
        };
        emit(
            snapshot,
            header,
            &sections,
            Order::Given,
            Edges::Hops,
            summary,
            sink,
        )
    }
}
