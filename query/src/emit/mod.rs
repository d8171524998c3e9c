//! The one place results reach a sink: the nodes of each section are loaded, ordered and
//! grouped as the sink asked, the header's counts and shared facts are worked out, then
//! groups, nodes (each with its via edge and chain) and edges are streamed — stopping as
//! soon as the sink says so.

mod facts;
mod order;
mod page;
mod stream;

// Sets of node keys and of a project's own file and package names: nothing an adversary
// picks to collide, so the fast hasher is safe here.
use rustc_hash::FxHashMap as HashMap;

use tsgraph_engine::{EdgeKind, NodeGuard, NodeKey, NodeView, Prefetch, Snapshot};

use crate::Query;
use crate::context::QueryContext;

use crate::error::QueryError;
use crate::header::{Counts, FileCount, Header, Listing, Question};
use crate::order::existing;
use crate::sink::{Budget, Grouping, MatchKind, ResultSink, Summary};

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
    /// Reached through a CALLS edge that may happen: dispatch to an override or
    /// implementation, or a table entry called by a computed key.
    pub(crate) may: bool,
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
            may: false,
        }
    }
}

/// A hop of a path, between two consecutive nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Hop {
    pub(crate) kind: EdgeKind,
    /// The stored edge goes from the later node to the earlier one.
    pub(crate) reversed: bool,
    /// A call that may happen rather than surely does (a table entry called by a computed
    /// key): the later node is marked.
    pub(crate) may: bool,
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
#[derive(Debug, Default, Clone)]
pub(crate) struct Section {
    /// The method whose results these are (class sections).
    pub(crate) target: Option<NodeKey>,
    pub(crate) items: Vec<Item>,
    /// Paths: the hops between consecutive items.
    pub(crate) hops: Vec<Hop>,
    /// Callers: unresolved call sites of the section's name (see `Counts::unresolved`).
    pub(crate) unresolved: usize,
    /// A listed part: the parent links (node, parent) of the section's results left out,
    /// through which the chains of listed results still read.
    pub(crate) links: Vec<(NodeKey, NodeKey)>,
    /// Change impact: how the section's symbol changed.
    pub(crate) change: Option<crate::ChangeKind>,
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

/// An edge between two results: source, kind, target and call count.
pub(crate) type Between = (NodeKey, EdgeKind, NodeKey, u32);

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

/// What a query found, ready to stream: the question (its header, whose shape and counts
/// the emitter fills in), the sections of results, how they are ordered, which edges follow
/// them, and how the walk ended.
pub(crate) struct Emission<'s, 'v> {
    pub(crate) header: Header<'v>,
    pub(crate) sections: &'s [Section],
    pub(crate) order: Order,
    pub(crate) edges: Edges,
    pub(crate) summary: Summary,
}

/// Streams what a query found into `sink`. The stages: load every record a section names
/// once, work out the header's facts ([`facts`]), then stream groups, nodes and edges
/// ([`stream`]). A sink with a budget gets the page of results that fits it ([`page`]), with
/// the totals of the whole answer and the files of what the page leaves out.
pub(crate) fn emit(
    query: &Query<'_>,
    found: Emission<'_, '_>,
    sink: &mut dyn ResultSink,
) -> Result<Summary, QueryError> {
    let context = query.context();
    let keys = named_keys(found.sections, context);
    let mut slots = context.take(|s| &mut s.slots);
    let emitted = emit_named(query, &keys, &mut slots, found, sink);
    context.put(|s| &mut s.keys, keys);
    context.put(|s| &mut s.slots, slots);
    emitted
}

/// [`emit`] once the nodes the sections name are known (`keys`); `slots` is scratch for
/// where each one's record is loaded.
fn emit_named(
    query: &Query<'_>,
    keys: &[NodeKey],
    slots: &mut HashMap<NodeKey, u32>,
    found: Emission<'_, '_>,
    sink: &mut dyn ResultSink,
) -> Result<Summary, QueryError> {
    let (snapshot, context) = (query.snapshot(), query.context());
    let Emission {
        header: template,
        sections,
        order,
        edges,
        summary,
    } = found;
    // Records are loaded once each, into containers sized once: they borrow the snapshot,
    // so the context cannot keep them.
    let mut guards: Vec<NodeGuard<'_>> = Vec::with_capacity(keys.len());
    for (at, key) in keys.iter().enumerate() {
        snapshot.prefetch_ahead(Prefetch::Record, at, |i| keys.get(i).copied());
        guards.push(existing(snapshot, *key)?);
    }
    let mut views: Vec<NodeView<'_>> = Vec::with_capacity(keys.len());
    for (slot, (key, guard)) in keys.iter().zip(&guards).enumerate() {
        views.push(guard.view()?);
        slots.insert(*key, slot as u32);
    }
    let view = |key: NodeKey| {
        slots
            .get(&key)
            .map(|slot| views[*slot as usize])
            .ok_or(QueryError::MissingNode(key.0))
    };
    let grouping = if order == Order::Given {
        Grouping::None
    } else {
        sink.grouping(template.kind())
    };
    let emitter = Emitter {
        snapshot,
        context,
        template,
        order,
        edges,
        summary,
        grouping,
        via_edges: sink.wants_via_edges(),
        chains: sink.wants_chains(),
        edge_facts: sink.wants_edge_facts(),
        view: &view,
    };
    // Paths are never cut: each is whole or not worth having, and there are few.
    let budget = if order == Order::Given {
        None
    } else {
        sink.budget()
    };
    // No budget, or one that lists everything from the start: the answer is whole, and its
    // own counts are its totals.
    let budget = match budget {
        Some(budget) if budget != Budget::UNBOUNDED => budget,
        _ => return emitter.emit(sections, None, sink),
    };
    // The totals of a walk's whole answer, which every page carries (other answers say
    // their total in the listing).
    let totals = match template.walk() {
        Some(_) => Some(facts::totals(sections, &view, context)?),
        None => None,
    };
    let traversal = template.kind().is_traversal();
    let ordered = page::in_listing_order(sections, order, traversal, &view)?;
    let total = ordered.len();
    if budget.offset > total {
        return Err(QueryError::OffsetPastEnd {
            offset: budget.offset,
            total,
        });
    }
    let generation = snapshot.generation()?.commits;
    // Search pages its matches itself: a listing continues from the search's own offset,
    // counts against every match, and has no files to name beyond its page.
    let search = match template.question {
        Question::Search(page) => Some(page),
        _ => None,
    };
    let pager = Pager {
        base: search.map_or(0, |page| page.offset),
        total: search.map_or(total, |page| page.total),
        local: total,
        exact: summary.stop != crate::sink::Stop::NodeLimit && !summary.truncated,
        budget,
        generation,
    };
    let listed = |page: page::Page| -> Result<Listed<'_>, QueryError> {
        let page = if search.is_some() {
            page::Page { files: 0, ..page }
        } else {
            page
        };
        let (files, more_files, more_nodes) = page::unlisted_files(&ordered, page);
        Ok(Listed {
            sections: page::cut(sections, &ordered, page),
            files,
            page,
            more_files,
            more_nodes,
        })
    };
    let chosen = if budget.tokens == usize::MAX {
        page::Page {
            offset: budget.offset,
            rows: total - budget.offset,
            files: page::UNLISTED_FILES,
        }
    } else {
        // The estimate errs by up to 10 % either way (most answers within 6 %): aim 10 %
        // under the budget so that the real count stays within it.
        let aim = budget.tokens - budget.tokens / 10;
        // A search page names no files: measuring fewer of them would measure it again.
        let files = if search.is_some() {
            0
        } else {
            page::UNLISTED_FILES
        };
        page::choose(total, budget.offset, (aim, files), |page, limit| {
            let part = listed(page)?;
            let cut = Cut {
                listing: pager.listing(&part),
                totals: totals.as_ref(),
            };
            let mut answer =
                |s: &mut dyn ResultSink| emitter.emit(&part.sections, Some(cut), s).map(drop);
            sink.measure(limit, &mut answer)
        })?
    };
    let part = listed(chosen)?;
    let cut = Cut {
        listing: pager.listing(&part),
        totals: totals.as_ref(),
    };
    emitter.emit(&part.sections, Some(cut), sink)
}

/// A page of results with what it leaves out (see [`page`]).
struct Listed<'v> {
    sections: Vec<Section>,
    page: page::Page,
    files: Vec<FileCount<'v>>,
    more_files: usize,
    more_nodes: usize,
}

/// What a listing of part of an answer says: where it starts, how large the whole is,
/// under which budget and at which generation.
struct Pager {
    /// Results before the sections' first (search: its own offset).
    base: usize,
    /// Results in the whole answer (search: every match).
    total: usize,
    /// Results in the sections.
    local: usize,
    exact: bool,
    budget: Budget,
    generation: u64,
}

impl Pager {
    /// The listing of `part`, or `None` when it is the whole answer.
    fn listing<'p>(&self, part: &'p Listed<'_>) -> Option<Listing<'p>> {
        let whole = part.page.offset == 0
            && part.page.rows == self.local
            && self.base == 0
            && self.total == self.local;
        (!whole).then(|| Listing {
            offset: self.base + part.page.offset,
            listed: part.page.rows,
            total: self.total,
            budget: self.budget.tokens,
            unlisted_files: &part.files,
            more_files: part.more_files,
            more_nodes: part.more_nodes,
            exact: self.exact,
            generation: self.generation,
            stale_from: self
                .budget
                .generation
                .filter(|asked| *asked != self.generation),
        })
    }
}

/// An answer listed under a budget: the listing (when part of the results) and, for a walk,
/// the totals of the whole answer.
#[derive(Clone, Copy)]
struct Cut<'c> {
    listing: Option<Listing<'c>>,
    totals: Option<&'c facts::Totals>,
}

/// What every emission of one answer shares.
struct Emitter<'a, 'v, V> {
    snapshot: &'a Snapshot,
    context: &'a QueryContext,
    template: Header<'v>,
    order: Order,
    edges: Edges,
    summary: Summary,
    grouping: Grouping,
    via_edges: bool,
    chains: bool,
    edge_facts: bool,
    view: &'a V,
}

impl<'v, V> Emitter<'_, 'v, V>
where
    V: Fn(NodeKey) -> Result<NodeView<'v>, QueryError>,
{
    /// One emission of `sections` into `sink`: facts, header, groups and nodes, what a
    /// listing leaves out, edges, the end.
    fn emit<'c>(
        &self,
        sections: &[Section],
        cut: Option<Cut<'c>>,
        sink: &mut dyn ResultSink,
    ) -> Result<Summary, QueryError>
    where
        'v: 'c,
    {
        let totals = cut.and_then(|c| c.totals);
        let facts = facts::gather(
            (self.snapshot, self.context),
            self.template,
            sections,
            (self.edges, self.edge_facts),
            (self.view, totals.is_none()),
        )?;
        let listing = cut.and_then(|c| c.listing);
        let mut header: Header<'c> = facts.header;
        // A page counts as the whole answer it is part of.
        if let (Some(totals), Some(walk)) = (totals, header.walk_mut()) {
            walk.counts = Counts {
                unresolved: walk.counts.unresolved,
                ..totals.counts
            };
            walk.by_depth = &totals.by_depth;
        }
        if cut.is_some() {
            header.listing = listing;
        }
        sink.begin(&header)?;
        let layout = stream::Layout {
            order: self.order,
            edges: self.edges,
            levels: order::group_levels(
                self.grouping,
                facts.header.shape.module.is_none(),
                facts.header.shape.package.is_none(),
            ),
            section_groups: facts.header.shape.sections > 0,
        };
        let mut streamer = stream::Streamer {
            snapshot: self.snapshot,
            context: self.context,
            sink: &mut *sink,
            view: self.view,
            extends: &facts.extends,
            via_edges: self.via_edges,
            chains: self.chains,
            edge_facts: self.edge_facts,
            summary: Summary {
                partial: self.summary.partial || listing.is_some(),
                ..self.summary
            },
            chain: Vec::new(),
        };
        let root = anchor(&facts.header).map(|r| r.id());
        streamer.sections(sections, &facts.views, &layout, root)?;
        if !streamer.summary.stopped
            && let Some(listing) = &listing
            && !streamer.sink.unlisted(listing)?
        {
            streamer.summary.stopped = true;
        }
        if !streamer.summary.stopped {
            streamer.between(&facts.between, &facts.between_ids)?;
        }
        self.context.put(|s| &mut s.between, facts.between);
        let summary = streamer.summary;
        sink.finish(&summary)?;
        Ok(summary)
    }
}

/// The node direct results hang from: a traversal's root, a path's start.
fn anchor<'v>(header: &Header<'v>) -> Option<NodeView<'v>> {
    match header.question {
        Question::Traversal(t) => Some(t.root),
        Question::Path(p) => Some(p.from),
        _ => None,
    }
}

/// Every node a section names — its target, its items and their parents — each once, in
/// the order first named.
fn named_keys(sections: &[Section], context: &QueryContext) -> Vec<NodeKey> {
    let mut keys = context.take(|s| &mut s.keys);
    let mut seen = context.take(|s| &mut s.named);
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
    context.put(|s| &mut s.named, seen);
    keys
}
