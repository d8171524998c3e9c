//! Streaming a result into its sink: each section's group openings, nodes (each with the
//! edge it was reached through and its chain from the root) and path hops, then the edges
//! between result nodes — stopping as soon as the sink says so.

use rustc_hash::FxHashMap as HashMap;
use tsgraph_engine::{AdjacencyGuard, EdgeKind, EdgeView, NodeKey, NodeView, Snapshot};

use super::facts::{EndIds, facets_of};
use super::order::{Placed, level_value, placed};
use super::{Between, Edges, Item, Order, Section};
use crate::context::QueryContext;
use crate::error::QueryError;
use crate::header::Facets;
use crate::sink::{EdgeInfo, Group, GroupLevel, NodeInfo, ResultSink, Summary, Via};

/// How a result is laid out: the order of nodes in their groups, the group levels, and which
/// edges follow.
pub(super) struct Layout {
    pub(super) order: Order,
    pub(super) edges: Edges,
    /// The group levels, outermost first (`order::group_levels`).
    pub(super) levels: Vec<GroupLevel>,
    /// Whether each section opens with a section group.
    pub(super) section_groups: bool,
}

/// The stream into one sink, with what every node needs.
pub(super) struct Streamer<'a, 'v, V> {
    pub(super) snapshot: &'a Snapshot,
    pub(super) context: &'a QueryContext,
    pub(super) sink: &'a mut dyn ResultSink,
    pub(super) view: &'a V,
    pub(super) extends: &'a HashMap<&'v str, String>,
    /// Whether the sink reads the stored via edge (one list read per node).
    pub(super) via_edges: bool,
    /// Whether the sink reads each node's chain from the root.
    pub(super) chains: bool,
    /// Whether the sink reads the stored facts of edges between results.
    pub(super) edge_facts: bool,
    pub(super) summary: Summary,
    /// Scratch for each node's chain from the root.
    pub(super) chain: Vec<&'v str>,
}

/// A sink's answer: go on, or stop (already recorded in the summary).
type Go = Result<bool, QueryError>;

impl<'v, V> Streamer<'_, 'v, V>
where
    V: Fn(NodeKey) -> Result<NodeView<'v>, QueryError>,
{
    /// Every section: its group, its nodes in their groups, its hops. `views` holds the
    /// record of every item of the sections, in order; `root` anchors the chains of a section
    /// without a target.
    pub(super) fn sections(
        &mut self,
        sections: &[Section],
        views: &[NodeView<'v>],
        layout: &Layout,
        root: Option<&'v str>,
    ) -> Result<(), QueryError> {
        debug_assert_eq!(
            sections.iter().map(|s| s.items.len()).sum::<usize>(),
            views.len(),
            "a record per item"
        );
        let mut rest = views;
        for (index, section) in sections.iter().enumerate() {
            let (section_views, after) = rest.split_at(section.items.len().min(rest.len()));
            rest = after;
            let section_root = match section.target {
                Some(target) => Some((self.view)(target)?.id()),
                None => root,
            };
            if layout.section_groups && !self.section_group(index, section)? {
                return Ok(());
            }
            if !self.nodes(index, (section, section_views), layout, section_root)? {
                return Ok(());
            }
            if layout.edges == Edges::Hops && !self.hops(section)? {
                return Ok(());
            }
        }
        Ok(())
    }

    /// Opens one section: the callers of one method of a class, or one of several paths.
    fn section_group(&mut self, index: usize, section: &Section) -> Go {
        let node = section.target.map(self.view).transpose()?;
        let go = self.sink.group(&Group {
            level: GroupLevel::Section,
            name: node.map_or("", |n| n.id()),
            kind: None,
            node,
            index,
            nodes: section.items.len(),
            edges: section.hops.len(),
            unresolved: section.unresolved,
            change: section.change,
            facets: Facets {
                may_call: section.items.iter().any(|item| item.may),
                ..Facets::default()
            },
        })?;
        self.went_on(go)
    }

    /// A section's nodes, sorted, each group opened before its first node.
    fn nodes(
        &mut self,
        index: usize,
        (section, views): (&Section, &[NodeView<'v>]),
        layout: &Layout,
        section_root: Option<&'v str>,
    ) -> Go {
        let mut parents = self.context.take(|s| &mut s.parents);
        // Chains are walked through the parents; a sink that reads none needs no map.
        if self.chains {
            parents.extend(
                section
                    .items
                    .iter()
                    .filter_map(|i| i.parent.map(|p| (i.key, p)))
                    .chain(section.links.iter().copied()),
            );
        }
        let go = self.placed_nodes(index, (section, views), layout, (section_root, &parents));
        self.context.put(|s| &mut s.parents, parents);
        go
    }

    /// [`Self::nodes`] with each node's parent known.
    fn placed_nodes(
        &mut self,
        index: usize,
        (section, views): (&Section, &[NodeView<'v>]),
        layout: &Layout,
        (section_root, parents): (Option<&'v str>, &HashMap<NodeKey, NodeKey>),
    ) -> Go {
        // Views borrow the snapshot: sized once, not kept in the context.
        let placed = placed(&section.items, views, layout.order, &layout.levels);
        let mut open: Vec<Option<u32>> = vec![None; layout.levels.len()];
        for (position, Placed { item, node, .. }) in placed.iter().enumerate() {
            if !self.groups(index, &placed[position..], &layout.levels, &mut open)? {
                return Ok(false);
            }
            self.chain.clear();
            let mut chain = std::mem::take(&mut self.chain);
            if self.chains {
                chain_of(item.key, parents, section_root, self.view, &mut chain)?;
            }
            let go = self.node(item, node, &chain);
            self.chain = chain;
            if !go? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Announces every group level whose value changes at the first of `rest`, outermost
    /// first, each with the count and facets of the nodes it holds.
    fn groups(
        &mut self,
        index: usize,
        rest: &[Placed<'v>],
        levels: &[GroupLevel],
        open: &mut [Option<u32>],
    ) -> Go {
        let Some(first) = rest.first() else {
            return Ok(true);
        };
        let node = &first.node;
        let mut changed = false;
        for (depth, level) in levels.iter().enumerate() {
            if !changed && first.in_group(depth, open[depth]) {
                continue;
            }
            changed = true;
            // The group's members: the nodes from here on that share its levels' values.
            let in_group = |other: &&Placed<'v>| first.same_groups(other, depth);
            let members = rest.iter().take_while(in_group).map(|other| &other.node);
            let (nodes, mut facets) = facets_of(members, self.extends);
            facets.may_call = rest.iter().take_while(in_group).any(|other| other.item.may);
            let go = self.sink.group(&Group {
                level: *level,
                name: level_value(*level, node),
                kind: (*level == GroupLevel::Kind).then(|| node.kind()),
                node: None,
                index,
                nodes,
                edges: 0,
                unresolved: 0,
                change: None,
                facets,
            })?;
            open[depth] = Some(first.group(depth));
            if !self.went_on(go)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// One node, with the edge it was reached through (and that edge's stored facts when the
    /// sink reads them) or its container.
    fn node(&mut self, item: &Item, node: &NodeView<'v>, chain: &[&'v str]) -> Go {
        let extends = self.extends.get(node.id()).map_or("", String::as_str);
        let go = match (item.parent, item.via) {
            (Some(parent), Some(kind)) => {
                let (source, target) = if item.from_node {
                    (item.key, parent)
                } else {
                    (parent, item.key)
                };
                let list = if self.via_edges {
                    Some(self.snapshot.out_edges(source)?)
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
                        id: (self.view)(parent)?.id(),
                        kind,
                        from_node: item.from_node,
                        edge,
                    }),
                    chain,
                    parent: None,
                    matched: item.matched,
                    extends,
                    may_call: item.may,
                };
                self.sink.node(node, &info)?
            }
            (parent, _) => {
                let info = NodeInfo {
                    depth: item.depth,
                    via: None,
                    chain,
                    parent: parent.map(self.view).transpose()?.map(|v| v.id()),
                    matched: item.matched,
                    extends,
                    may_call: item.may,
                };
                self.sink.node(node, &info)?
            }
        };
        self.went_on(go)
    }

    /// A path's hops, in path order, with their stored facts.
    fn hops(&mut self, section: &Section) -> Go {
        for (pair, hop) in section.items.windows(2).zip(&section.hops) {
            let [earlier, later] = pair else { continue };
            let (source, target) = if hop.reversed {
                (later.key, earlier.key)
            } else {
                (earlier.key, later.key)
            };
            let list = self.snapshot.out_edges(source)?;
            let stored = stored_edge(&list, hop.kind, target)?;
            let go = self.sink.edge(&EdgeInfo {
                kind: hop.kind,
                source: (self.view)(source)?.id(),
                target: (self.view)(target)?.id(),
                reversed: hop.reversed,
                count: stored.map_or(0, |e| e.count()),
                stored,
                places: None,
            })?;
            if !self.went_on(go)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The edges between result nodes, sorted by source, with the IDs of their ends (`ids`,
    /// beside them): each source's list is read once, and only for a sink that reads the
    /// edges' stored facts.
    pub(super) fn between(
        &mut self,
        between: &[Between],
        ids: &[EndIds<'v>],
    ) -> Result<(), QueryError> {
        let mut list: Option<(NodeKey, AdjacencyGuard<'_>)> = None;
        for (&(source, kind, target, count), &((source_id, from), (target_id, to))) in
            between.iter().zip(ids)
        {
            // A sink reading the facts takes the count from them; the others got it with
            // the edge.
            let (stored, count) = if self.edge_facts {
                let list = match list {
                    Some((key, ref guard)) if key == source => guard,
                    _ => &list.insert((source, self.snapshot.out_edges(source)?)).1,
                };
                let stored = stored_edge(list, kind, target)?;
                (stored, stored.map_or(0, |e| e.count()))
            } else {
                (None, count)
            };
            let go = self.sink.edge(&EdgeInfo {
                kind,
                source: source_id,
                target: target_id,
                reversed: false,
                count,
                stored,
                places: Some((from, to)),
            })?;
            if !self.went_on(go)? {
                break;
            }
        }
        Ok(())
    }

    /// Records a sink's request to stop.
    fn went_on(&mut self, go: bool) -> Go {
        if !go {
            self.summary.stopped = true;
        }
        Ok(go)
    }
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
