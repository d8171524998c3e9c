//! The header's facts, worked out before the first row: the result's shared module,
//! package, file and facets, the traversal counts, what classes and interfaces extend
//! (search and file symbols), and the edges between result nodes with their counts by kind.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use tsgraph_engine::{
    EdgeKind, NodeFlags, NodeKey, NodeKind, NodeView, Prefetch, Snapshot, Visibility,
};

use super::{Between, Edges, Section};
use crate::context::QueryContext;
use crate::error::QueryError;
use crate::header::{Counts, Facets, Header};
use crate::order::existing;
use crate::sink::QueryKind;

/// What the stream needs besides the sections: the filled header, the record of every
/// result, what each class or interface extends (by ID) and the edges between result nodes,
/// sorted.
pub(super) struct Facts<'v> {
    pub(super) header: Header<'v>,
    /// The record of each item of the sections, in their order (read once, here).
    pub(super) views: Vec<NodeView<'v>>,
    pub(super) extends: HashMap<&'v str, String>,
    pub(super) between: Vec<Between>,
    /// The ID and place of each edge's source and target, beside `between`.
    pub(super) between_ids: Vec<EndIds<'v>>,
}

/// Fills `template`'s shared facts and edge counts from `sections`, and a walk's counts
/// unless `walk_counts` is false (a page, which carries the whole answer's totals).
pub(super) fn gather<'v>(
    (snapshot, context): (&Snapshot, &QueryContext),
    template: Header<'v>,
    sections: &[Section],
    (edges, edge_facts): (Edges, bool),
    (view, walk_counts): (&impl Fn(NodeKey) -> Result<NodeView<'v>, QueryError>, bool),
) -> Result<Facts<'v>, QueryError> {
    let mut header = template;
    let count = sections.iter().map(|s| s.items.len()).sum();
    let mut result_views: Vec<NodeView<'v>> = Vec::with_capacity(count);
    let mut via_kinds = crate::EdgeKinds::NONE;
    for item in sections.iter().flat_map(|s| &s.items) {
        if let Some(kind) = item.via {
            via_kinds = via_kinds.with(kind);
        }
        result_views.push(view(item.key)?);
    }
    // Search and file symbols list what classes and interfaces extend (seed 002).
    let kind = header.kind();
    let extends = if matches!(kind, QueryKind::Search | QueryKind::FileSymbols) {
        let keys = sections.iter().flat_map(|s| &s.items).map(|i| i.key);
        extends_of(snapshot, keys, view)?
    } else {
        HashMap::default()
    };
    let root = header.root();
    if let Some(walk) = header.walk_mut() {
        walk.via_kinds = via_kinds;
    }
    // A page of a walk takes the whole answer's totals instead (`walk_counts` is false).
    if let Some(walk) = header.walk_mut().filter(|_| walk_counts) {
        let depths = smallest_depths(sections, context);
        let counted = counts(&depths, result_views.iter().map(|v| Ok(*v)));
        context.put(|s| &mut s.depths, depths);
        walk.counts = Counts {
            unresolved: walk.counts.unresolved,
            ..counted?
        };
    }
    let (between, between_ids) = match edges {
        Edges::Between | Edges::BetweenAll => {
            let root_key = match root {
                Some(root) => snapshot.key_of(root.id())?,
                None => None,
            };
            let ends = Ends {
                root: root_key.zip(root),
                mode: edges,
                facts: edge_facts,
            };
            edges_between((snapshot, context), ends, sections, &result_views)?
        }
        _ => (Vec::new(), Vec::new()),
    };
    let shape = &mut header.shape;
    shape.nodes = result_views.len();
    shape.module = uniform(&result_views, |v| v.module());
    shape.package = uniform(&result_views, |v| v.package());
    shape.file = uniform(&result_views, |v| v.file());
    shape.facets = facets(&result_views, &extends);
    shape.facets.may_call = sections.iter().flat_map(|s| &s.items).any(|i| i.may);
    for (_, kind, _, _) in &between {
        shape.edges.add(*kind);
    }
    for hop in sections.iter().flat_map(|s| &s.hops) {
        shape.edges.add(hop.kind);
    }
    let section_groups = sections.len() > 1 || sections.iter().any(|s| s.target.is_some());
    shape.sections = if section_groups { sections.len() } else { 0 };
    Ok(Facts {
        header,
        views: result_views,
        extends,
        between,
        between_ids,
    })
}

/// The counts of a whole traversal answer, worked out once when only part of it is listed:
/// direct, transitive, files, packages and the largest depth, and how many results lie at
/// each depth (from depth 1).
pub(super) struct Totals {
    pub(super) counts: Counts,
    pub(super) by_depth: Vec<usize>,
}

/// The [`Totals`] of `sections` (a result reached twice counts once, at its smallest
/// depth).
pub(super) fn totals<'v>(
    sections: &[Section],
    view: &impl Fn(NodeKey) -> Result<NodeView<'v>, QueryError>,
    context: &QueryContext,
) -> Result<Totals, QueryError> {
    let counted = smallest_depths(sections, context);
    let views = sections.iter().flat_map(|s| &s.items).map(|i| view(i.key));
    let totals = counts(&counted, views).map(|counts| {
        let mut by_depth = vec![0; counts.max_depth as usize];
        for depth in counted.values().filter(|d| **d > 0) {
            by_depth[*depth as usize - 1] += 1;
        }
        Totals { counts, by_depth }
    });
    context.put(|s| &mut s.depths, counted);
    totals
}

/// Each result's smallest depth.
fn smallest_depths(sections: &[Section], context: &QueryContext) -> HashMap<NodeKey, u32> {
    let mut counted = context.take(|s| &mut s.depths);
    for item in sections.iter().flat_map(|s| &s.items) {
        let depth = counted.entry(item.key).or_insert(item.depth);
        *depth = (*depth).min(item.depth);
    }
    counted
}

/// Direct and transitive results and the largest depth, from each result's smallest depth
/// (`counted`), and the files and packages of the results (`views`: every result, a result
/// seen twice or more counting once).
fn counts<'v>(
    counted: &HashMap<NodeKey, u32>,
    views: impl Iterator<Item = Result<NodeView<'v>, QueryError>>,
) -> Result<Counts, QueryError> {
    // Sized once: they hold strings borrowed from the snapshot, which a context cannot keep.
    let mut files = HashSet::with_capacity_and_hasher(counted.len(), Default::default());
    let mut packages = HashSet::with_capacity_and_hasher(counted.len(), Default::default());
    for v in views {
        let v = v?;
        files.insert(v.file());
        packages.insert(v.package());
    }
    let mut counts = Counts::default();
    for depth in counted.values() {
        if *depth == 1 {
            counts.direct += 1;
        } else if *depth > 1 {
            counts.transitive += 1;
        }
        counts.max_depth = counts.max_depth.max(*depth);
    }
    counts.files = files.len();
    counts.packages = packages.len();
    Ok(counts)
}

/// The value of `field` that every node shares, or `None` (also for no nodes).
fn uniform<'g>(
    nodes: &[NodeView<'g>],
    field: impl Fn(&NodeView<'g>) -> &'g str,
) -> Option<&'g str> {
    let first = field(nodes.first()?);
    nodes.iter().all(|n| field(n) == first).then_some(first)
}

/// Whether a node has any signature fact: parameters, a type, a modifier (the default
/// export included) or a visibility.
pub fn has_signature(node: &NodeView<'_>) -> bool {
    let modifiers = NodeFlags::ASYNC
        | NodeFlags::STATIC
        | NodeFlags::OPTIONAL
        | NodeFlags::READONLY
        | NodeFlags::CONST
        | NodeFlags::ABSTRACT
        | NodeFlags::DEFAULT_EXPORT;
    node.parameters().len() > 0
        || !node.type_text().is_empty()
        || node.flags().0 & modifiers != 0
        || node.visibility() != Visibility::Default
}

/// The facts every node of `nodes` shares.
pub(super) fn facets(nodes: &[NodeView<'_>], extends: &HashMap<&str, String>) -> Facets {
    facets_of(nodes.iter(), extends).1
}

/// How many nodes `nodes` yields and the facts they all share, in one pass (a group's
/// count and facets without collecting its members).
pub(super) fn facets_of<'n, 'v: 'n>(
    nodes: impl Iterator<Item = &'n NodeView<'v>>,
    extends: &HashMap<&str, String>,
) -> (usize, Facets) {
    let mut count = 0;
    let mut exported: Option<Option<bool>> = None;
    let mut facets = Facets::default();
    for node in nodes {
        count += 1;
        exported = match exported {
            None => Some(Some(node.exported())),
            Some(Some(first)) if first != node.exported() => Some(None),
            same => same,
        };
        facets.signature |= node.kind() != NodeKind::File && has_signature(node);
        facets.extends |= extends.contains_key(node.id());
    }
    facets.exported = exported.flatten();
    (count, facets)
}

/// For each class and interface among `keys` that extends something in the graph, by ID:
/// the symbol paths of what it extends, in stored order (by target key), `, `-separated.
fn extends_of<'v>(
    snapshot: &Snapshot,
    keys: impl Iterator<Item = NodeKey>,
    view: &impl Fn(NodeKey) -> Result<NodeView<'v>, QueryError>,
) -> Result<HashMap<&'v str, String>, QueryError> {
    let mut out = HashMap::default();
    for key in keys {
        let node = view(key)?;
        if !matches!(node.kind(), NodeKind::Class | NodeKind::Interface) {
            continue;
        }
        let list = snapshot.out_edges(key)?;
        let mut names = String::new();
        for edge in list.edges()? {
            if edge.kind() != EdgeKind::Extends {
                continue;
            }
            let guard = existing(snapshot, edge.other())?;
            if !names.is_empty() {
                names.push_str(", ");
            }
            names.push_str(guard.view()?.symbol());
        }
        if !names.is_empty() {
            out.insert(node.id(), names);
        }
    }
    Ok(out)
}

/// The root of a walk (its center, for neighbors), which edges between results may also
/// reach, and whether every edge must end inside the result.
pub(super) struct Ends<'v> {
    pub(super) root: Option<(NodeKey, NodeView<'v>)>,
    pub(super) mode: Edges,
    /// Whether the sink reads each edge's stored facts, which give its call count when it
    /// is streamed; otherwise the count is read here, in the pass that finds the edge.
    pub(super) facts: bool,
}

/// Every stored edge between two result nodes, sorted by the source's position, the kind
/// and the target's position (`views`: the record of each item of `sections`, in order),
/// with the IDs of their ends beside them. The ranks, the edges and the result come from
/// `context`'s scratch; the caller gives the result back when it has streamed it.
pub(super) fn edges_between<'v>(
    (snapshot, context): (&Snapshot, &QueryContext),
    ends: Ends<'v>,
    sections: &[Section],
    views: &[NodeView<'v>],
) -> Result<(Vec<Between>, Vec<EndIds<'v>>), QueryError> {
    let count = sections.iter().map(|s| s.items.len()).sum::<usize>() + 1;
    // Positions borrow the snapshot: sized once, not kept.
    let mut ordered: Vec<Positioned<'v>> = Vec::with_capacity(count);
    let mut seen = context.take(|s| &mut s.named);
    let position = |v: NodeView<'v>| (v.file(), v.start_line(), v.id());
    if let Some((key, v)) = ends.root {
        seen.insert(key);
        ordered.push((key, position(v)));
    }
    let keys = sections.iter().flat_map(|s| s.items.iter().map(|i| i.key));
    debug_assert_eq!(keys.clone().count(), views.len(), "a record per item");
    for (key, v) in keys.zip(views) {
        if seen.insert(key) {
            ordered.push((key, position(*v)));
        }
    }
    context.put(|s| &mut s.named, seen);
    // Positions are distinct (an ID is), so an unstable sort orders as a stable one would.
    ordered.sort_unstable_by(|a, b| a.1.cmp(&b.1));
    let mut rank = context.take(|s| &mut s.ranks);
    rank.extend(ordered.iter().enumerate().map(|(i, (key, _))| (*key, i)));
    let mut out = context.take(|s| &mut s.ranked_edges);
    let found = ranked_edges(snapshot, (&ordered, &rank), &ends, &mut out);
    context.put(|s| &mut s.ranks, rank);
    found?;
    // One stored edge per (source, kind, target): the keys are distinct.
    out.sort_unstable_by_key(|(from, kind, to, _)| (*from, *kind, *to));
    let mut between = context.take(|s| &mut s.between);
    between.extend(out.iter().map(|(_, _, _, edge)| *edge));
    // IDs borrow the snapshot: sized once, not kept. A place is a rank, below the node count
    // (at most `u32::MAX`: keys are `u32`, and each node is ranked once).
    let end = |rank: usize| (ordered[rank].1.2, rank as u32);
    let ids = out
        .iter()
        .map(|(from, _, to, _)| (end(*from), end(*to)))
        .collect();
    context.put(|s| &mut s.ranked_edges, out);
    Ok((between, ids))
}

/// The ID and place (rank in position order) of an edge's source and of its target.
pub(super) type EndIds<'v> = ((&'v str, u32), (&'v str, u32));

/// A result node with its position (file, start line, ID).
type Positioned<'v> = (NodeKey, (&'v str, u32, &'v str));

/// The edges leaving each of `ordered` whose other end has a rank, as (rank of the source,
/// kind, rank of the target, the edge with its call count), into `out`.
fn ranked_edges(
    snapshot: &Snapshot,
    (ordered, rank): (&[Positioned<'_>], &HashMap<NodeKey, usize>),
    ends: &Ends<'_>,
    out: &mut Vec<(usize, EdgeKind, usize, Between)>,
) -> Result<(), QueryError> {
    // A result's rank is its place in `ordered`.
    for (from, (key, _)) in ordered.iter().enumerate() {
        snapshot.prefetch_ahead(Prefetch::OutEdges, from, |i| ordered.get(i).map(|o| o.0));
        let list = snapshot.out_edges(*key)?;
        for edge in list.edges()? {
            match rank.get(&edge.other()) {
                Some(&to) => {
                    let count = if ends.facts { 0 } else { edge.view()?.count() };
                    let between = (*key, edge.kind(), edge.other(), count);
                    out.push((from, edge.kind(), to, between));
                }
                None if ends.mode == Edges::BetweenAll => {
                    return Err(QueryError::MissingNode(edge.other().0));
                }
                None => {}
            }
        }
    }
    Ok(())
}
