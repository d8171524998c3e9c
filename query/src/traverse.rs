//! Bounded breadth-first traversals: callers, callees, impact and neighbors. A class (or an
//! interface) asked for callers or callees answers for itself and each of its methods, one
//! section per method.

use petgraph::visit::EdgeFiltered;
use tsgraph_engine::{EdgeKind, NodeKey, NodeKind, Resolution, Snapshot};

use crate::Query;
use crate::context::QueryContext;
use crate::emit::{Edges, Emission, Item, Order, Section, emit};
use crate::error::QueryError;
use crate::header::{Counts, Header, Question, Traversal, UnresolvedSite, Walk};
use crate::kinds::EdgeKinds;
use crate::order::existing;
use crate::plan::bfs::{Bounds, Levels, bounded_bfs_in};
use crate::plan::view::{Edge, GraphView};
use crate::plan::{Explain, Plan, Strategy, directions};
use crate::sink::{Direction, QueryKind, ResultSink, Stop, Summary, UNRESOLVED_LISTED};

/// Limits and edge kinds of callers, callees and impact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TraversalOptions {
    /// Hops from the root, at least 1 (default 100: transitive answers are bounded by the
    /// node limit and the sink's token budget, not by a shallow depth).
    pub max_depth: u32,
    /// Result nodes reached at most (default 10,000, so that the totals of ordinary hubs
    /// are exact; a budget bounds what is printed); past it the result says it was
    /// truncated.
    pub max_nodes: usize,
    /// The edge kinds followed; `None` for the query's default (callers and callees: CALLS
    /// and INCLUDES; impact: every dependency kind).
    pub edge_kinds: Option<EdgeKinds>,
}

impl Default for TraversalOptions {
    fn default() -> Self {
        TraversalOptions {
            max_depth: 100,
            max_nodes: 10_000,
            edge_kinds: None,
        }
    }
}

/// Limits and direction of neighbors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NeighborOptions {
    /// Hops from the center (default 1).
    pub distance: u32,
    /// Which edges to follow (default both).
    pub direction: Direction,
    /// Result nodes at most, the center included (default 10,000; a budget bounds what is
    /// printed).
    pub max_nodes: usize,
    /// The edge kinds followed; `None` for every kind.
    pub edge_kinds: Option<EdgeKinds>,
}

impl Default for NeighborOptions {
    fn default() -> Self {
        NeighborOptions {
            distance: 1,
            direction: Direction::Both,
            max_nodes: 10_000,
            edge_kinds: None,
        }
    }
}

/// A depth-bounded BFS from `root` over the edges of `kinds` (petgraph's `EdgeFiltered` over
/// the snapshot's view), stopping before a result past `max_nodes`. A result reached through
/// a CALLS edge the indexer found by dispatch (to an override or implementation of the
/// member called) is marked as one it may call.
pub(crate) fn bfs(
    view: &GraphView<'_>,
    root: NodeKey,
    bounds: Bounds,
    (direction, kinds): (Direction, EdgeKinds),
    context: &QueryContext,
) -> Result<Reached, QueryError> {
    let filtered = EdgeFiltered::from_fn(view, |edge: Edge| kinds.contains(edge.link.kind));
    let mut items = context.take(|s| &mut s.items);
    let mut levels = Levels {
        seen: context.take(|s| &mut s.visited),
        frontier: context.take(|s| &mut s.frontier),
        next: context.take(|s| &mut s.next),
    };
    let stop = bounded_bfs_in(
        &filtered,
        root,
        directions(direction),
        bounds,
        &mut levels,
        |reached| {
            let may = may_call(view, &reached.edge);
            items.push(Item {
                depth: reached.depth,
                parent: Some(reached.parent),
                via: Some(reached.edge.link.kind),
                // An incoming edge is stored at the other end, pointing here.
                from_node: reached.direction == petgraph::Direction::Incoming,
                may,
                ..Item::plain(reached.node)
            });
        },
    );
    context.put(|s| &mut s.visited, levels.seen);
    context.put(|s| &mut s.frontier, levels.frontier);
    context.put(|s| &mut s.next, levels.next);
    view.check()?;
    Ok(Reached { items, stop })
}

impl Query<'_> {
    /// Streams the sections of a walk in position order, then gives the first section's
    /// results back to the context for the next walk (the others are rarely there).
    pub(crate) fn emit_walk(
        &self,
        header: Header<'_>,
        sections: Vec<Section>,
        edges: Edges,
        summary: Summary,
        sink: &mut dyn ResultSink,
    ) -> Result<Summary, QueryError> {
        let found = Emission {
            header,
            sections: &sections,
            order: Order::Position,
            edges,
            summary,
        };
        let emitted = emit(self, found, sink);
        if let Some(first) = sections.into_iter().next() {
            self.context().put(|s| &mut s.items, first.items);
        }
        emitted
    }
}

/// How the walks of `plan` ended: where they stopped, after reaching `reached` nodes and
/// reading what `view` counted.
pub(crate) fn walk_summary(
    plan: Plan,
    view: &GraphView<'_>,
    reached: usize,
    stop: Stop,
) -> Summary {
    Summary {
        truncated: stop == Stop::NodeLimit,
        limit: plan.max_nodes,
        found: true,
        stopped: false,
        partial: false,
        stop,
        explain: Some(Explain {
            plan,
            lists_read: view.lists_read(),
            nodes_reached: reached,
            stop,
        }),
    }
}

/// Whether `edge` is a CALLS edge that may happen (dispatch, a table called by a computed
/// key). The entry says so when it was read from the source's list or from a graph file's
/// incoming entries; otherwise the view looks the source's entry up (a read error is kept by
/// the view, for `check`).
fn may_call(view: &GraphView<'_>, edge: &Edge) -> bool {
    edge.link.kind == EdgeKind::Calls
        && view
            .call_resolution(edge.link.resolution, edge.source, edge.target)
            .is_some_and(Resolution::is_may_call)
}

/// What a walk from one root found: every reached node but the root, in discovery order.
pub(crate) struct Reached {
    pub(crate) items: Vec<Item>,
    pub(crate) stop: Stop,
}

impl Query<'_> {
    /// Every function or method that calls `root`, transitively up to `max_depth` hops.
    /// A class or interface answers for itself (its constructor) and each of its methods.
    pub fn callers(
        &self,
        root: NodeKey,
        options: &TraversalOptions,
        sink: &mut dyn ResultSink,
    ) -> Result<Summary, QueryError> {
        let kinds = options.edge_kinds.unwrap_or(EdgeKinds::CALLS);
        self.dependents(
            QueryKind::Callers,
            root,
            options,
            Direction::In,
            kinds,
            true,
            sink,
        )
    }

    /// Everything `root` calls (and the components it includes), transitively; REFERENCES
    /// too when asked through `edge_kinds`. A class or interface answers for itself and
    /// each of its methods.
    pub fn callees(
        &self,
        root: NodeKey,
        options: &TraversalOptions,
        sink: &mut dyn ResultSink,
    ) -> Result<Summary, QueryError> {
        let kinds = options.edge_kinds.unwrap_or(EdgeKinds::CALLS);
        self.dependents(
            QueryKind::Callees,
            root,
            options,
            Direction::Out,
            kinds,
            true,
            sink,
        )
    }

    /// Everything that depends on `root` through a dependency edge (every kind but
    /// CONTAINS, or those of `edge_kinds`), transitively, each with the node it was reached
    /// through.
    pub fn impact(
        &self,
        root: NodeKey,
        options: &TraversalOptions,
        sink: &mut dyn ResultSink,
    ) -> Result<Summary, QueryError> {
        let kinds = options.edge_kinds.unwrap_or(EdgeKinds::DEPENDENCIES);
        self.dependents(
            QueryKind::Impact,
            root,
            options,
            Direction::In,
            kinds,
            false,
            sink,
        )
    }

    #[allow(clippy::too_many_arguments)] // One private worker behind three public queries.
    fn dependents(
        &self,
        kind: QueryKind,
        root: NodeKey,
        options: &TraversalOptions,
        direction: Direction,
        kinds: EdgeKinds,
        per_method: bool,
        sink: &mut dyn ResultSink,
    ) -> Result<Summary, QueryError> {
        let snapshot = self.snapshot();
        let root_guard = existing(snapshot, root)?;
        let root_view = root_guard.view()?;
        let max_depth = options.max_depth.max(1);
        let targets =
            if per_method && matches!(root_view.kind(), NodeKind::Class | NodeKind::Interface) {
                methods_of(snapshot, root)?
            } else {
                Vec::new()
            };
        let plan = Plan {
            kind,
            strategy: Strategy::BoundedBfs,
            direction,
            edge_kinds: kinds,
            max_depth,
            max_nodes: options.max_nodes,
            walks: 1 + targets.len(),
        };
        let view = GraphView::new(snapshot);
        let mut sections = Vec::new();
        let mut stop = Stop::Complete;
        let mut reached_total = 0;
        let mut unresolved_total = 0;
        // The first few unresolved call sites over the root and its methods.
        let mut sampled: Vec<(String, tsgraph_engine::UnresolvedCall)> = Vec::new();
        for target in std::iter::once(root).chain(targets.iter().copied()) {
            let bounds = Bounds {
                depth: max_depth,
                nodes: options.max_nodes.saturating_sub(reached_total),
            };
            let reached = bfs(&view, target, bounds, (direction, kinds), self.context())?;
            reached_total += reached.items.len();
            stop = stop.max(reached.stop);
            let unresolved = if kind == QueryKind::Callers {
                let (count, first) = unresolved_calls_of(snapshot, target)?;
                let room = UNRESOLVED_LISTED.saturating_sub(sampled.len());
                sampled.extend(first.into_iter().take(room));
                count
            } else {
                0
            };
            // The class's own section is listed only when it has results of its own (or
            // unresolved calls that may be its own) or when there are no methods to answer
            // for.
            if target == root && !targets.is_empty() && reached.items.is_empty() && unresolved == 0
            {
                continue;
            }
            unresolved_total += unresolved;
            sections.push(Section {
                target: (!targets.is_empty()).then_some(target),
                items: reached.items,
                hops: Vec::new(),
                unresolved,
                links: Vec::new(),
                change: None,
            });
            if stop == Stop::NodeLimit {
                break;
            }
        }
        let candidates =
            candidates_of(snapshot, sampled.iter().map(|(_, call)| call.name.as_str()))?;
        let sites: Vec<UnresolvedSite<'_>> = sampled
            .iter()
            .map(|(file, call)| {
                let (listed, count) = &candidates[call.name.as_str()];
                UnresolvedSite {
                    file,
                    line: call.line,
                    callee: &call.callee,
                    caller: &call.caller,
                    candidates: listed,
                    candidate_count: *count,
                }
            })
            .collect();
        let header = Header::new(Question::Traversal(Traversal {
            kind,
            root: root_view,
            direction,
            walk: Walk {
                counts: Counts {
                    unresolved: unresolved_total,
                    ..Counts::default()
                },
                ..Walk::bounded(max_depth, kinds)
            },
            unresolved_sites: &sites,
        }));
        let summary = walk_summary(plan, &view, reached_total, stop);
        self.emit_walk(header, sections, Edges::None, summary, sink)
    }

    /// Every node within `distance` hops of `center`, and every edge between two of them or
    /// between one of them and the center. The center is the header's root, not a node.
    pub fn neighbors(
        &self,
        center: NodeKey,
        options: &NeighborOptions,
        sink: &mut dyn ResultSink,
    ) -> Result<Summary, QueryError> {
        let snapshot = self.snapshot();
        let center_guard = existing(snapshot, center)?;
        let kinds = options.edge_kinds.unwrap_or(EdgeKinds::ALL);
        let plan = Plan {
            kind: QueryKind::Neighbors,
            strategy: Strategy::BoundedBfs,
            direction: options.direction,
            edge_kinds: kinds,
            max_depth: options.distance,
            max_nodes: options.max_nodes,
            walks: 1,
        };
        let view = GraphView::new(snapshot);
        // The center counts against the limit.
        let bounds = Bounds {
            depth: options.distance,
            nodes: options.max_nodes.saturating_sub(1),
        };
        let reached = bfs(
            &view,
            center,
            bounds,
            (options.direction, kinds),
            self.context(),
        )?;
        let items = reached.items;
        let header = Header::new(Question::Traversal(Traversal {
            kind: QueryKind::Neighbors,
            root: center_guard.view()?,
            direction: options.direction,
            walk: Walk::bounded(options.distance, kinds),
            unresolved_sites: &[],
        }));
        let summary = walk_summary(plan, &view, items.len(), reached.stop);
        let sections = vec![Section::whole(items)];
        self.emit_walk(header, sections, Edges::Between, summary, sink)
    }
}

/// How many call sites the indexer left unresolved whose called name is `key`'s name — calls
/// through a receiver of unknown type that may reach it — and the first few of them. One
/// pass over the store's index of unresolved names.
fn unresolved_calls_of(
    snapshot: &Snapshot,
    key: NodeKey,
) -> Result<(usize, Vec<(String, tsgraph_engine::UnresolvedCall)>), QueryError> {
    let guard = existing(snapshot, key)?;
    let name = guard.view()?.name();
    if name.is_empty() {
        return Ok((0, Vec::new()));
    }
    Ok(snapshot.unresolved_call_sample(name, UNRESOLVED_LISTED)?)
}

/// For each called name: the functions and methods of the project with that name — what an
/// unresolved call of it may reach — the first [`CANDIDATES_LISTED`] by ID, and how many.
fn candidates_of<'n>(
    snapshot: &Snapshot,
    names: impl Iterator<Item = &'n str>,
) -> Result<std::collections::HashMap<&'n str, (Vec<String>, usize)>, QueryError> {
    let mut out = std::collections::HashMap::new();
    for name in names {
        if out.contains_key(name) {
            continue;
        }
        let (count, ids) = snapshot.callables_named(name, CANDIDATES_LISTED)?;
        out.insert(name, (ids, count));
    }
    Ok(out)
}

/// How many candidate targets of an unresolved call an answer names at most.
pub const CANDIDATES_LISTED: usize = 5;

/// The methods a class or interface contains, in position order.
pub(crate) fn methods_of(
    snapshot: &Snapshot,
    container: NodeKey,
) -> Result<Vec<NodeKey>, QueryError> {
    let list = snapshot.out_edges(container)?;
    let mut methods = Vec::new();
    for edge in list.edges()? {
        if edge.kind() != EdgeKind::Contains {
            continue;
        }
        let guard = existing(snapshot, edge.other())?;
        let view = guard.view()?;
        if view.kind() == NodeKind::Method {
            methods.push((view.start_line(), view.id().to_owned(), edge.other()));
        }
    }
    methods.sort();
    Ok(methods.into_iter().map(|(_, _, key)| key).collect())
}

#[cfg(test)]
mod tests;
