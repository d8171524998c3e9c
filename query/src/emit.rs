//! The one place results reach a sink: the nodes of each section are loaded, ordered and
//! grouped as the sink asked, the header's counts and shared facts are worked out, then
//! groups, nodes (each with its via edge and chain) and edges are streamed — stopping as
//! soon as the sink says so.

// Sets of node keys and of a project's own file and package names: nothing an adversary
// picks to collide, so the fast hasher is safe here.
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use tsgraph_engine::{
    AdjacencyGuard, EdgeKind, EdgeView, NodeFlags, NodeGuard, NodeKey, NodeKind, NodeView,
    Snapshot, Visibility,
};

use crate::error::QueryError;
use crate::order::existing;
use crate::sink::{
    Counts, EdgeInfo, Facets, Group, GroupLevel, Grouping, Header, MatchKind, NodeInfo, QueryKind,
    ResultSink, Summary, Via,
};

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
/// totals are filled in here. `root` anchors chains (the root of a traversal).
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
    // Every node a section names, loaded once.
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

    // The header may now borrow the records loaded here (a shorter lifetime).
    let mut header: Header<'_> = template;
    // Shared facts and counts over every result node.
    let mut result_views: Vec<NodeView<'_>> = Vec::new();
    let mut counted: HashMap<NodeKey, u32> = HashMap::default();
    for item in sections.iter().flat_map(|s| &s.items) {
        let depth = counted.entry(item.key).or_insert(item.depth);
        *depth = (*depth).min(item.depth);
        if let Some(kind) = item.via {
            header.via_kinds = header.via_kinds.with(kind);
        }
        result_views.push(view(item.key)?);
    }
    header.nodes = result_views.len();
    header.module = uniform(&result_views, |v| v.module());
    header.package = uniform(&result_views, |v| v.package());
    header.file = uniform(&result_views, |v| v.file());
    // Search and file symbols list what classes and interfaces extend (seed 002).
    let extends = if matches!(header.kind, QueryKind::Search | QueryKind::FileSymbols) {
        let keys = sections.iter().flat_map(|s| &s.items).map(|i| i.key);
        extends_of(snapshot, keys, &view)?
    } else {
        HashMap::default()
    };
    header.facets = facets(&result_views, &extends);
    if header.kind.is_traversal() {
        let mut files = HashSet::default();
        let mut packages = HashSet::default();
        let mut counts = Counts::default();
        for (key, depth) in &counted {
            let v = view(*key)?;
            files.insert(v.file());
            packages.insert(v.package());
            if *depth == 1 {
                counts.direct += 1;
            } else if *depth > 1 {
                counts.transitive += 1;
            }
            counts.max_depth = counts.max_depth.max(*depth);
        }
        counts.files = files.len();
        counts.packages = packages.len();
        counts.unresolved = template.counts.unresolved;
        header.counts = counts;
    }
    let root_key = match header.root {
        Some(root) => snapshot.key_of(root.id())?,
        None => None,
    };
    let between = match edges {
        Edges::Between | Edges::BetweenAll => {
            let root = root_key.zip(header.root);
            edges_between(snapshot, root, sections, edges, &view)?
        }
        _ => Vec::new(),
    };
    for (_, kind, _) in &between {
        header.edges_by_kind[usize::from(kind.as_u8())] += 1;
    }
    for hop in sections.iter().flat_map(|s| &s.hops) {
        header.edges_by_kind[usize::from(hop.kind.as_u8())] += 1;
    }
    header.edges = match edges {
        Edges::Hops => sections.iter().map(|s| s.hops.len()).sum(),
        Edges::Between | Edges::BetweenAll => between.len(),
        Edges::None => 0,
    };
    let section_groups = sections.len() > 1 || sections.iter().any(|s| s.target.is_some());
    header.sections = if section_groups { sections.len() } else { 0 };
    let module_level = header.module.is_none();
    let package_level = header.package.is_none();
    let root_id = header.root.map(|r| r.id());
    sink.begin(&header)?;

    let mut summary = summary;
    let mut chain: Vec<&str> = Vec::new();
    'sections: for (index, section) in sections.iter().enumerate() {
        let section_root = match section.target {
            Some(target) => Some(view(target)?.id()),
            None => root_id,
        };
        if section_groups {
            let go = sink.group(&Group {
                level: GroupLevel::Section,
                name: match section.target {
                    Some(target) => view(target)?.id(),
                    None => "",
                },
                kind: None,
                node: section.target.map(view).transpose()?,
                index,
                nodes: section.items.len(),
                edges: section.hops.len(),
                unresolved: section.unresolved,
                facets: Facets::default(),
            })?;
            if !go {
                summary.stopped = true;
                break;
            }
        }
        let parents: HashMap<NodeKey, NodeKey> = section
            .items
            .iter()
            .filter_map(|i| i.parent.map(|p| (i.key, p)))
            .collect();
        let mut placed: Vec<(Item, NodeView<'_>)> = section
            .items
            .iter()
            .map(|item| Ok((*item, view(item.key)?)))
            .collect::<Result<_, QueryError>>()?;
        sort(&mut placed, order, grouping, module_level, package_level);
        let levels = group_levels(grouping, module_level, package_level);
        let mut open: Vec<Option<&str>> = vec![None; levels.len()];
        for (position, (item, node)) in placed.iter().enumerate() {
            // Announce every group level whose value changes here, outermost first.
            let mut changed = false;
            for (depth, level) in levels.iter().enumerate() {
                let value = level_value(*level, node);
                if changed || open[depth] != Some(value) {
                    changed = true;
                    let members: Vec<NodeView<'_>> = placed[position..]
                        .iter()
                        .take_while(|(_, other)| {
                            levels[..=depth]
                                .iter()
                                .all(|l| level_value(*l, other) == level_value(*l, node))
                        })
                        .map(|(_, other)| *other)
                        .collect();
                    let go = sink.group(&Group {
                        level: *level,
                        name: value,
                        kind: (*level == GroupLevel::Kind).then(|| node.kind()),
                        node: None,
                        index,
                        nodes: members.len(),
                        edges: 0,
                        unresolved: 0,
                        facets: facets(&members, &extends),
                    })?;
                    open[depth] = Some(value);
                    if !go {
                        summary.stopped = true;
                        break 'sections;
                    }
                }
            }
            chain.clear();
            chain_of(item.key, &parents, section_root, &view, &mut chain)?;
            let go = match (item.parent, item.via) {
                (Some(parent), Some(kind)) => {
                    let (source, target) = if item.from_node {
                        (item.key, parent)
                    } else {
                        (parent, item.key)
                    };
                    let list = if via_edges {
                        Some(snapshot.out_edges(source)?)
                    } else {
                        None
                    };
                    let edge = match &list {
                        Some(list) => stored_edge(list, kind, target)?,
                        None => None,
                    };
                    let info = NodeInfo {
                        depth: item.depth,
                        via: Some(Via {
                            id: view(parent)?.id(),
                            kind,
                            from_node: item.from_node,
                            edge,
                        }),
                        chain: &chain,
                        parent: None,
                        matched: item.matched,
                        extends: extends.get(node.id()).map_or("", String::as_str),
                    };
                    sink.node(node, &info)?
                }
                (parent, _) => {
                    let info = NodeInfo {
                        depth: item.depth,
                        via: None,
                        chain: &chain,
                        parent: parent.map(view).transpose()?.map(|v| v.id()),
                        matched: item.matched,
                        extends: extends.get(node.id()).map_or("", String::as_str),
                    };
                    sink.node(node, &info)?
                }
            };
            if !go {
                summary.stopped = true;
                break 'sections;
            }
        }
        if edges == Edges::Hops {
            for (pair, hop) in section.items.windows(2).zip(&section.hops) {
                let [earlier, later] = pair else { continue };
                let (source, target) = if hop.reversed {
                    (later.key, earlier.key)
                } else {
                    (earlier.key, later.key)
                };
                let list = snapshot.out_edges(source)?;
                let stored = stored_edge(&list, hop.kind, target)?;
                let go = sink.edge(&EdgeInfo {
                    kind: hop.kind,
                    source: view(source)?.id(),
                    target: view(target)?.id(),
                    reversed: hop.reversed,
                    count: stored.map_or(0, |e| e.count()),
                    stored,
                })?;
                if !go {
                    summary.stopped = true;
                    break 'sections;
                }
            }
        }
    }
    if !summary.stopped {
        // Sorted by source: each source's list is read once.
        let mut list: Option<(NodeKey, AdjacencyGuard<'_>)> = None;
        for (source, kind, target) in &between {
            let list = match list {
                Some((key, ref guard)) if key == *source => guard,
                _ => &list.insert((*source, snapshot.out_edges(*source)?)).1,
            };
            let stored = stored_edge(list, *kind, *target)?;
            let go = sink.edge(&EdgeInfo {
                kind: *kind,
                source: view(*source)?.id(),
                target: view(*target)?.id(),
                reversed: false,
                count: stored.map_or(0, |e| e.count()),
                stored,
            })?;
            if !go {
                summary.stopped = true;
                break;
            }
        }
    }
    sink.finish(&summary)?;
    Ok(summary)
}

/// The stored edge of `kind` to `target` in an outgoing list, if any, with its facts.
fn stored_edge<'a>(
    list: &'a AdjacencyGuard<'_>,
    kind: EdgeKind,
    target: NodeKey,
) -> Result<Option<EdgeView<'a>>, QueryError> {
    Ok(list.find(kind, target)?.map(|e| e.view()).transpose()?)
}

/// The IDs from the section root's first hop down to `key`'s parent.
fn chain_of<'v>(
    key: NodeKey,
    parents: &HashMap<NodeKey, NodeKey>,
    root: Option<&str>,
    view: &impl Fn(NodeKey) -> Result<NodeView<'v>, QueryError>,
    chain: &mut Vec<&'v str>,
) -> Result<(), QueryError> {
    let mut current = parents.get(&key).copied();
    // A chain is never longer than the parents map; the bound guards against a cycle.
    let mut guard = parents.len();
    while let Some(parent) = current {
        let id = view(parent)?.id();
        if Some(id) == root || guard == 0 {
            break;
        }
        chain.push(id);
        current = parents.get(&parent).copied();
        guard -= 1;
    }
    chain.reverse();
    Ok(())
}

fn group_levels(grouping: Grouping, module_level: bool, package_level: bool) -> Vec<GroupLevel> {
    match grouping {
        Grouping::None => Vec::new(),
        Grouping::FileKind => vec![GroupLevel::File, GroupLevel::Kind],
        Grouping::PackageKind => {
            let mut levels = Vec::new();
            if module_level {
                levels.push(GroupLevel::Module);
            }
            if package_level {
                levels.push(GroupLevel::Package);
            }
            levels.push(GroupLevel::Kind);
            levels
        }
    }
}

fn level_value<'g>(level: GroupLevel, node: &NodeView<'g>) -> &'g str {
    match level {
        GroupLevel::Module => node.module(),
        GroupLevel::Package => node.package(),
        GroupLevel::File => node.file(),
        GroupLevel::Kind => node.kind().as_str(),
        GroupLevel::Section => "",
    }
}

fn sort(
    placed: &mut [(Item, NodeView<'_>)],
    order: Order,
    grouping: Grouping,
    module_level: bool,
    package_level: bool,
) {
    if order == Order::Given {
        return;
    }
    placed.sort_by(|(ia, a), (ib, b)| {
        let groups = match grouping {
            Grouping::None => std::cmp::Ordering::Equal,
            Grouping::FileKind => (a.file(), a.kind()).cmp(&(b.file(), b.kind())),
            Grouping::PackageKind => {
                let module = if module_level {
                    a.module().cmp(b.module())
                } else {
                    std::cmp::Ordering::Equal
                };
                let package = if package_level {
                    a.package().cmp(b.package())
                } else {
                    std::cmp::Ordering::Equal
                };
                module.then(package).then(a.kind().cmp(&b.kind()))
            }
        };
        let rank = match order {
            Order::Rank => ia.rank.cmp(&ib.rank),
            _ => std::cmp::Ordering::Equal,
        };
        groups.then(rank).then_with(|| {
            (a.file(), a.start_line(), a.id()).cmp(&(b.file(), b.start_line(), b.id()))
        })
    });
}

/// The value of `field` that every node shares, or `None` (also for no nodes).
pub(crate) fn uniform<'g>(
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

fn facets(nodes: &[NodeView<'_>], extends: &HashMap<&str, String>) -> Facets {
    let exported = nodes
        .first()
        .map(|n| n.exported())
        .filter(|first| nodes.iter().all(|n| n.exported() == *first));
    Facets {
        exported,
        signature: nodes
            .iter()
            .any(|n| n.kind() != NodeKind::File && has_signature(n)),
        extends: nodes.iter().any(|n| extends.contains_key(n.id())),
    }
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

/// Every stored edge between two result nodes, sorted by the source's position, the kind
/// and the target's position.
fn edges_between<'v>(
    snapshot: &Snapshot,
    root: Option<(NodeKey, NodeView<'v>)>,
    sections: &[Section],
    mode: Edges,
    view: &impl Fn(NodeKey) -> Result<NodeView<'v>, QueryError>,
) -> Result<Vec<(NodeKey, EdgeKind, NodeKey)>, QueryError> {
    let mut ordered: Vec<(NodeKey, (&str, u32, &str))> = Vec::new();
    let mut seen = HashSet::default();
    let position = |v: NodeView<'v>| (v.file(), v.start_line(), v.id());
    if let Some((key, v)) = root {
        seen.insert(key);
        ordered.push((key, position(v)));
    }
    for key in sections.iter().flat_map(|s| s.items.iter().map(|i| i.key)) {
        if seen.insert(key) {
            ordered.push((key, position(view(key)?)));
        }
    }
    ordered.sort_by(|a, b| a.1.cmp(&b.1));
    let rank: HashMap<NodeKey, usize> = ordered
        .iter()
        .enumerate()
        .map(|(i, (key, _))| (*key, i))
        .collect();
    let mut out: Vec<(usize, EdgeKind, usize, NodeKey, NodeKey)> = Vec::new();
    for (key, _) in &ordered {
        let list = snapshot.out_edges(*key)?;
        for edge in list.edges()? {
            match rank.get(&edge.other()) {
                Some(&to) => out.push((rank[key], edge.kind(), to, *key, edge.other())),
                None if mode == Edges::BetweenAll => {
                    return Err(QueryError::MissingNode(edge.other().0));
                }
                None => {}
            }
        }
    }
    out.sort_by_key(|(from, kind, to, _, _)| (*from, *kind, *to));
    Ok(out
        .into_iter()
        .map(|(_, kind, _, source, target)| (source, kind, target))
        .collect())
}
