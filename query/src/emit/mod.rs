//! The one place results reach a sink: the nodes of each section are loaded, ordered and
//! grouped as the sink asked, the header's counts and shared facts are worked out, then
//! groups, nodes (each with its via edge and chain) and edges are streamed — stopping as
//! soon as the sink says so.

mod facts;
mod order;
mod stream;

// Sets of node keys and of a project's own file and package names: nothing an adversary
// picks to collide, so the fast hasher is safe here.
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use tsgraph_engine::{EdgeKind, NodeGuard, NodeKey, NodeView, Snapshot};

use crate::error::QueryError;
use crate::order::existing;
use crate::sink::{Grouping, Header, MatchKind, ResultSink, Summary};

pub use facts::has_signature;

/// One result node as a query found it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Item {
    pub(crate) key: NodeKey,
    /// Hops from the root, nesting depth (file symbols) or position on a path.
    pub(crate) depth: u32,
    /// The node it was reached from (traversals), or its container (file symbols).
    pub(crate) parent: Option<NodeKey>,
    /// The kind of the edge from `parent` (traversals).
    pub(crate) via: Option<EdgeKind>,
    /// Whether the stored edge points from this node to `parent`.
    pub(crate) from_node: bool,
    /// Search: how it matched.
    pub(crate) matched: Option<MatchKind>,
    /// Search: its rank, lower first.
    pub(crate) rank: u32,
}

impl Item {
    /// A node with no traversal facts.
    pub(crate) fn plain(key: NodeKey) -> Item {
        Item {
            key,
            depth: 0,
            parent: None,
            via: None,
            from_node: false,
            matched: None,
            rank: 0,
        }
    }
}

/// A hop of a path, between two consecutive nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Hop {
    pub(crate) kind: EdgeKind,
    /// The stored edge goes from the later node to the earlier one.
    pub(crate) reversed: bool,
}

/// How the nodes of a section are ordered inside their groups.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Order {
    /// File, start line, ID.
    Position,
    /// As given (paths); no groups.
    Given,
    /// By rank, then position (search).
    Rank,
}

/// One section of a result: all of it, one method of a class, or one path.
#[derive(Debug, Default)]
pub(crate) struct Section {
    /// The method whose results these are (class sections).
    pub(crate) target: Option<NodeKey>,
    pub(crate) items: Vec<Item>,
    /// Paths: the hops between consecutive items.
    pub(crate) hops: Vec<Hop>,
    /// Callers: unresolved call sites of the section's name (see `Counts::unresolved`).
    pub(crate) unresolved: usize,
}

impl Section {
    /// The one section of a result that is not split by method or path.
    pub(crate) fn whole(items: Vec<Item>) -> Section {
        Section {
            items,
            ..Section::default()
        }
    }
}

/// Which edges follow the nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Edges {
    /// None.
    None,
    /// The hops of each path section, after its nodes.
    Hops,
    /// Every stored edge between two result nodes, after all nodes; an edge to a node
    /// outside the result is skipped.
    Between,
    /// The same, where every edge must end inside the result (export).
    BetweenAll,
}

/// Streams `sections` into `sink`. `header` gives the question; counts, shared facts and
/// totals are filled in here. The stages: load every record a section names once, work out
/// the header's facts ([`facts`]), then stream groups, nodes and edges ([`stream`]).
pub(crate) fn emit(
    snapshot: &Snapshot,
    template: Header<'_>,
    sections: &[Section],
    order: Order,
    edges: Edges,
    summary: Summary,
    sink: &mut dyn ResultSink,
) -> Result<Summary, QueryError> {
    let grouping = if order == Order::Given {
        Grouping::None
    } else {
        sink.grouping(template.kind)
    };
    let via_edges = sink.wants_via_edges();
    let keys = named_keys(sections);
    let guards: Vec<NodeGuard<'_>> = keys
        .iter()
        .map(|key| existing(snapshot, *key))
        .collect::<Result<_, _>>()?;
    let views: HashMap<NodeKey, NodeView<'_>> = keys
        .iter()
        .zip(&guards)
        .map(|(key, guard)| Ok((*key, guard.view()?)))
        .collect::<Result<_, QueryError>>()?;
    let view = |key: NodeKey| {
        views
            .get(&key)
            .copied()
            .ok_or(QueryError::MissingNode(key.0))
    };
    let facts = facts::gather(snapshot, template, sections, edges, &view)?;
    sink.begin(&facts.header)?;
    let layout = stream::Layout {
        order,
        edges,
        levels: order::group_levels(
            grouping,
            facts.header.module.is_none(),
            facts.header.package.is_none(),
        ),
        grouping,
        section_groups: facts.header.sections > 0,
    };
    let mut streamer = stream::Streamer {
        snapshot,
        sink: &mut *sink,
        view: &view,
        extends: &facts.extends,
        via_edges,
        summary,
        chain: Vec::new(),
    };
    streamer.sections(sections, &layout, facts.header.root.map(|r| r.id()))?;
    if !streamer.summary.stopped {
        streamer.between(&facts.between)?;
    }
    let summary = streamer.summary;
    sink.finish(&summary)?;
    Ok(summary)
}

/// Every node a section names — its target, its items and their parents — each once, in
/// the order first named.
fn named_keys(sections: &[Section]) -> Vec<NodeKey> {
    let mut keys: Vec<NodeKey> = Vec::new();
    let mut seen: HashSet<NodeKey> = HashSet::default();
    for section in sections {
        for key in section
            .target
            .iter()
            .copied()
            .chain(section.items.iter().map(|i| i.key))
            .chain(section.items.iter().filter_map(|i| i.parent))
        {
            if seen.insert(key) {
                keys.push(key);
            }
        }
    }
    keys
}
