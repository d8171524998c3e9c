//! The impact of a change: for each symbol a change touched, everything that depends on it
//! (one section per symbol, saying how it changed), and the symbols the change removed with
//! the places that still name them. Which symbols changed is worked out by the caller (the
//! facade reads a diff); this answers for them on the graph as it is.

use tsgraph_engine::{EdgeKind, NodeKey, NodeKind, Snapshot};

use crate::Query;
use crate::emit::{Edges, Section};
use crate::error::QueryError;
use crate::header::{ChangeQuestion, Header, Question, Walk};
use crate::kinds::EdgeKinds;
use crate::order::existing;
use crate::plan::bfs::Bounds;
use crate::plan::view::GraphView;
use crate::plan::{Plan, Strategy};
use crate::sink::{Direction, QueryKind, ResultSink, Stop, Summary};
use crate::traverse::{TraversalOptions, bfs, walk_summary};

/// How a symbol changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ChangeKind {
    /// Its signature: parameters, return or declared type, modifiers, visibility, export.
    Signature,
    /// Its body only.
    Body,
    /// It is new (or renamed: see [`RemovedSymbol::renamed_to`]).
    Added,
    /// Top-level code of a file outside any declaration (imports, statements).
    TopLevel,
}

impl ChangeKind {
    /// The name used in outputs.
    pub const fn as_str(self) -> &'static str {
        match self {
            ChangeKind::Signature => "signature",
            ChangeKind::Body => "body",
            ChangeKind::Added => "added",
            ChangeKind::TopLevel => "top-level",
        }
    }
}

/// A symbol of the graph a change touched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChangedSymbol {
    /// The node.
    pub key: NodeKey,
    /// How it changed.
    pub change: ChangeKind,
}

/// A declaration the change removed (it is in the old text, not in the new).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemovedSymbol {
    /// Its ID in the old text (`src/a.ts:oldName`).
    pub id: String,
    /// Its simple name.
    pub name: String,
    /// Its kind.
    pub kind: NodeKind,
    /// Its lines in the old text.
    pub lines: (u32, u32),
    /// The ID of a declaration the change added in its place with the same kind and
    /// signature: it was probably renamed to that.
    pub renamed_to: Option<String>,
}

/// What a change did, as the caller worked it out: the base it is measured against, the
/// symbols of the graph it touched, and the declarations it removed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Change {
    /// What the change is measured against (`HEAD`, a revision, `A..B`).
    pub base: String,
    /// Symbols of the graph the change touched, in the order to answer for them.
    pub changed: Vec<ChangedSymbol>,
    /// Declarations it removed.
    pub removed: Vec<RemovedSymbol>,
    /// Changed declarations the graph does not hold (its files are not indexed, or the graph
    /// is not at the diff's new side), by ID.
    pub unknown: Vec<String>,
}

/// A place that still names a removed symbol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NamedAt<'a> {
    /// The removed symbol's ID.
    pub symbol: &'a str,
    /// The file naming it.
    pub file: &'a str,
    /// The line, when known.
    pub line: Option<u32>,
    /// `call` (a call of its name the indexer could not resolve) or `import` (an import of
    /// its name from its file).
    pub how: &'static str,
}

/// How many places naming one removed symbol are listed at most.
pub const NAMED_AT_LISTED: usize = 10;

impl Query<'_> {
    /// Everything that depends on each symbol `change` touched (one section per symbol, in
    /// the order given, with how it changed), over the dependency kinds of `options` (every
    /// kind but CONTAINS by default), and the symbols it removed with the places that still
    /// name them.
    pub fn change_impact(
        &self,
        change: &Change,
        options: &TraversalOptions,
        sink: &mut dyn ResultSink,
    ) -> Result<Summary, QueryError> {
        let snapshot = self.snapshot();
        let kinds = options.edge_kinds.unwrap_or(EdgeKinds::DEPENDENCIES);
        let max_depth = options.max_depth.max(1);
        let plan = Plan {
            kind: QueryKind::ChangeImpact,
            strategy: Strategy::BoundedBfs,
            direction: Direction::In,
            edge_kinds: kinds,
            max_depth,
            max_nodes: options.max_nodes,
            walks: change.changed.len(),
        };
        let view = GraphView::new(snapshot);
        let mut sections = Vec::with_capacity(change.changed.len());
        let mut stop = Stop::Complete;
        let mut reached_total = 0;
        for symbol in &change.changed {
            existing(snapshot, symbol.key)?;
            let bounds = Bounds {
                depth: max_depth,
                nodes: options.max_nodes.saturating_sub(reached_total),
            };
            let reached = bfs(
                &view,
                symbol.key,
                bounds,
                (Direction::In, kinds),
                self.context(),
            )?;
            let (items, walk_stop) = (reached.items, reached.stop);
            reached_total += items.len();
            stop = stop.max(walk_stop);
            sections.push(Section {
                target: Some(symbol.key),
                items,
                change: Some(symbol.change),
                ..Section::default()
            });
            if stop == Stop::NodeLimit {
                break;
            }
        }
        let named = named_at(snapshot, &change.removed)?;
        let places: Vec<NamedAt<'_>> = named
            .iter()
            .map(|(symbol, file, line, how)| NamedAt {
                symbol,
                file,
                line: *line,
                how,
            })
            .collect();
        let header = Header::new(Question::ChangeImpact(ChangeQuestion {
            diff: &change.base,
            walk: Walk::bounded(max_depth, kinds),
            changed: change.changed.len(),
            removed: &change.removed,
            named_at: &places,
            unknown: &change.unknown,
        }));
        let summary = walk_summary(plan, &view, reached_total, stop);
        self.emit_walk(header, sections, Edges::None, summary, sink)
    }
}

/// The files importing `symbol`'s name from its file (while the graph still has that file),
/// at most [`NAMED_AT_LISTED`].
fn imports_naming(snapshot: &Snapshot, symbol: &RemovedSymbol) -> Result<Vec<Place>, QueryError> {
    let mut out = Vec::new();
    let file = symbol.id.split(':').next().unwrap_or_default();
    let Some(file_key) = snapshot.key_of(file)? else {
        return Ok(out);
    };
    let list = snapshot.in_edges(file_key)?;
    for edge in list.edges()? {
        if out.len() >= NAMED_AT_LISTED {
            break;
        }
        if edge.kind() != EdgeKind::Imports {
            continue;
        }
        // The facts (the names imported) are on the importer's outgoing edge.
        let outgoing = snapshot.out_edges(edge.other())?;
        let Some(stored) = outgoing.find(EdgeKind::Imports, file_key)? else {
            continue;
        };
        let stored = stored.view()?;
        if !stored.names().any(|n| n == symbol.name) {
            continue;
        }
        let importer = existing(snapshot, edge.other())?;
        let importer = importer.view()?.file().to_owned();
        out.push((symbol.id.clone(), importer, stored.sites().min(), "import"));
    }
    Ok(out)
}

/// A place naming a removed symbol, owned: the symbol's ID, the file, the line, how.
type Place = (String, String, Option<u32>, &'static str);

/// The places that still name each removed symbol: imports of its name from its file, then
/// calls of its name the indexer could not resolve; at most [`NAMED_AT_LISTED`] of each.
fn named_at(snapshot: &Snapshot, removed: &[RemovedSymbol]) -> Result<Vec<Place>, QueryError> {
    let mut out = Vec::new();
    for symbol in removed {
        // Imports first: they break for certain; calls of the bare name only may.
        out.extend(imports_naming(snapshot, symbol)?);
        let (_, calls) = snapshot.unresolved_call_sample(&symbol.name, NAMED_AT_LISTED)?;
        for (file, call) in calls {
            out.push((symbol.id.clone(), file, Some(call.line), "call"));
        }
    }
    Ok(out)
}
