//! What a sink learns before the first row: the question asked, with the facts only its
//! answers have ([`Question`]), the shape every answer has ([`Shape`]: its nodes, its edges
//! by kind, what they share) and, for an answer listed in part, what it leaves out
//! ([`Listing`]).
//!
//! One type per kind of question, so a field means one thing: a traversal's root is the
//! symbol asked about, a path has a `from` and a `to`, a search page its pattern and total,
//! deps its package — where a single flat header once had fields whose meaning changed with
//! the query.

use tsgraph_engine::{EdgeKind, NodeView};

use crate::kinds::EdgeKinds;
use crate::sink::{Direction, QueryKind};

/// The shape of a result and the question it answers, given before any node.
#[derive(Debug, Clone, Copy)]
pub struct Header<'a> {
    /// The question, with what only its answers carry.
    pub question: Question<'a>,
    /// The nodes and edges that follow and what they share.
    pub shape: Shape<'a>,
    /// The answer lists part of its results — a token budget cut it, or an offset was
    /// asked for — and says what it left out; `None` when every result follows.
    pub listing: Option<Listing<'a>>,
}

impl<'a> Header<'a> {
    /// A header for `question` with an empty shape (the emitter fills it in).
    pub fn new(question: Question<'a>) -> Header<'a> {
        Header {
            question,
            shape: Shape::default(),
            listing: None,
        }
    }

    /// Which question the result answers.
    pub fn kind(&self) -> QueryKind {
        self.question.kind()
    }

    /// The walk's bounds and counts: traversals and change impact.
    pub fn walk(&self) -> Option<&Walk<'a>> {
        match &self.question {
            Question::Traversal(t) => Some(&t.walk),
            Question::ChangeImpact(c) => Some(&c.walk),
            _ => None,
        }
    }

    /// The walk's bounds and counts, to fill in.
    pub(crate) fn walk_mut(&mut self) -> Option<&mut Walk<'a>> {
        match &mut self.question {
            Question::Traversal(t) => Some(&mut t.walk),
            Question::ChangeImpact(c) => Some(&mut c.walk),
            _ => None,
        }
    }

    /// The symbol a traversal started from: the symbol asked about, the center of
    /// neighbors (which is not among the nodes), or a class whose methods are sections.
    pub fn root(&self) -> Option<NodeView<'a>> {
        match &self.question {
            Question::Traversal(t) => Some(t.root),
            _ => None,
        }
    }
}

/// The question a result answers, with what only its answers carry.
#[derive(Debug, Clone, Copy)]
pub enum Question<'a> {
    /// Callers, callees, impact or neighbors of one symbol.
    Traversal(Traversal<'a>),
    /// Shortest paths between two symbols.
    Path(PathQuestion<'a>),
    /// A page of the symbols matching a pattern or topic.
    Search(SearchPage<'a>),
    /// Every symbol of one file.
    FileSymbols {
        /// The file's path.
        file: &'a str,
    },
    /// Every node and edge of the graph.
    Export,
    /// The packages a package depends on, or that depend on it.
    Deps(DepsQuestion<'a>),
    /// What depends on the symbols a change touched.
    ChangeImpact(ChangeQuestion<'a>),
}

impl Question<'_> {
    /// Which question this is.
    pub fn kind(&self) -> QueryKind {
        match self {
            Question::Traversal(t) => t.kind,
            Question::Path(_) => QueryKind::Path,
            Question::Search(_) => QueryKind::Search,
            Question::FileSymbols { .. } => QueryKind::FileSymbols,
            Question::Export => QueryKind::Export,
            Question::Deps(_) => QueryKind::Deps,
            Question::ChangeImpact(_) => QueryKind::ChangeImpact,
        }
    }
}

/// A walk from one symbol: callers, callees, impact or neighbors.
#[derive(Debug, Clone, Copy)]
pub struct Traversal<'a> {
    /// Callers, callees, impact or neighbors.
    pub kind: QueryKind,
    /// The symbol asked about; the center of neighbors, which is not among the nodes; a
    /// class whose methods are sections.
    pub root: NodeView<'a>,
    /// The adjacency followed (neighbors may go either way; the others have one).
    pub direction: Direction,
    /// Bounds and counts.
    pub walk: Walk<'a>,
    /// Callers: the first few of the unresolved call sites [`Counts::unresolved`] counts
    /// (at most [`crate::UNRESOLVED_LISTED`]), by file.
    pub unresolved_sites: &'a [UnresolvedSite<'a>],
}

/// The bounds of a walk from a root and what it reached.
#[derive(Debug, Clone, Copy, Default)]
pub struct Walk<'a> {
    /// The depth bound: `max_depth` (callers, callees, impact, change impact) or
    /// `distance` (neighbors).
    pub max_depth: u32,
    /// The edge kinds followed.
    pub edge_kinds: EdgeKinds,
    /// The kinds of the edges results were reached through (their `via`), so encoders can
    /// hoist a kind every result shares.
    pub via_kinds: EdgeKinds,
    /// Depth and spread of the results — of the whole answer when only part is listed.
    pub counts: Counts,
    /// How many results lie at each depth, from depth 1 (the direct results) on, when only
    /// part of the answer is listed; empty for a whole answer.
    pub by_depth: &'a [usize],
}

impl Walk<'_> {
    /// A walk bounded by `max_depth` along `edge_kinds`, with nothing reached yet (the
    /// emitter counts what was).
    pub fn bounded(max_depth: u32, edge_kinds: EdgeKinds) -> Walk<'static> {
        Walk {
            max_depth,
            edge_kinds,
            via_kinds: EdgeKinds::NONE,
            counts: Counts::default(),
            by_depth: &[],
        }
    }
}

/// Paths from one symbol to another.
#[derive(Debug, Clone, Copy)]
pub struct PathQuestion<'a> {
    /// Where the paths start. When `reversed`, the end asked for.
    pub from: NodeView<'a>,
    /// Where they end. When `reversed`, the start asked for.
    pub to: NodeView<'a>,
    /// No path leads from the symbol asked as the start to the one asked as the end, and
    /// these go the other way: `from` is the end asked for, `to` the start.
    pub reversed: bool,
    /// The search depth.
    pub max_depth: u32,
    /// The edge kinds followed.
    pub edge_kinds: EdgeKinds,
}

/// A page of search results.
#[derive(Debug, Clone, Copy)]
pub struct SearchPage<'a> {
    /// The pattern or topic searched for.
    pub pattern: &'a str,
    /// Matches skipped before the first one streamed.
    pub offset: usize,
    /// The page size asked for.
    pub limit: usize,
    /// Matches there are in all, before paging.
    pub total: usize,
}

/// The package dependencies of one package.
#[derive(Debug, Clone, Copy)]
pub struct DepsQuestion<'a> {
    /// The package asked about.
    pub package: &'a str,
    /// Its module; `None` for a package outside the project.
    pub module: Option<&'a str>,
    /// Out: what it depends on; in: what depends on it.
    pub direction: Direction,
    /// The depth bound.
    pub max_depth: u32,
    /// Dependencies one hop away.
    pub direct: usize,
    /// Dependencies further away.
    pub transitive: usize,
    /// Dependencies that are packages of the project.
    pub internal: usize,
    /// Dependencies outside the project (known only by the name files import).
    pub external: usize,
    /// Distinct importing files across every dependency.
    pub files: usize,
    /// The deepest dependency's depth.
    pub deepest: u32,
    /// How many [`crate::DependencyImport`]s follow the dependencies.
    pub imports: usize,
}

/// The impact of a change: one section per changed symbol, and what the change removed.
#[derive(Debug, Clone, Copy)]
pub struct ChangeQuestion<'a> {
    /// The revisions compared, as asked (`HEAD`, `A..B`).
    pub diff: &'a str,
    /// Bounds and counts over every section.
    pub walk: Walk<'a>,
    /// How many symbols the change touched (sections, over every page).
    pub changed: usize,
    /// The declarations the change removed.
    pub removed: &'a [crate::RemovedSymbol],
    /// The places that still name a removed declaration.
    pub named_at: &'a [crate::NamedAt<'a>],
    /// Changed declarations the graph does not hold, by ID.
    pub unknown: &'a [String],
}

/// What every answer has: the nodes and edges that follow and the facts they share.
#[derive(Debug, Clone, Copy, Default)]
pub struct Shape<'a> {
    /// How many nodes follow in all (a traversal's root is not among them; a path's
    /// endpoints are); deps: how many dependencies.
    pub nodes: usize,
    /// How many edges follow, by kind.
    pub edges: EdgeCounts,
    /// How many sections follow (several methods of a class, several paths, the symbols
    /// a change touched); 0 when the result is one section without a section group.
    pub sections: usize,
    /// The package every node shares, if they share one (encoders hoist it).
    pub package: Option<&'a str>,
    /// The module every node shares, if they share one.
    pub module: Option<&'a str>,
    /// The file every node shares, if they share one.
    pub file: Option<&'a str>,
    /// Facts every node shares.
    pub facets: Facets,
}

/// How many edges of each kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EdgeCounts([usize; EDGE_KINDS]);

/// How many edge kinds there are.
const EDGE_KINDS: usize = EdgeKind::ALL.len();

impl EdgeCounts {
    /// Edges of `kind`.
    pub fn get(&self, kind: EdgeKind) -> usize {
        self.0[usize::from(kind.as_u8())]
    }

    /// Counts one more edge of `kind`.
    pub fn add(&mut self, kind: EdgeKind) {
        self.0[usize::from(kind.as_u8())] += 1;
    }

    /// Edges of every kind.
    pub fn total(&self) -> usize {
        self.0.iter().sum()
    }

    /// Edges of every kind but `kind` (the edges an encoder lists apart from CONTAINS,
    /// which it shows as nesting).
    pub fn total_but(&self, kind: EdgeKind) -> usize {
        self.total() - self.get(kind)
    }

    /// Each kind with its count, in kind order (kinds without an edge included).
    pub fn iter(&self) -> impl Iterator<Item = (EdgeKind, usize)> + '_ {
        EdgeKind::ALL.iter().map(|kind| (*kind, self.get(*kind)))
    }
}

/// Depth and spread of a walk's results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counts {
    /// Results one hop from the root.
    pub direct: usize,
    /// Results further away.
    pub transitive: usize,
    /// Distinct files of the results.
    pub files: usize,
    /// Distinct packages of the results (the empty package counts as one).
    pub packages: usize,
    /// The largest depth reached.
    pub max_depth: u32,
    /// Callers: the call sites the indexer could not resolve whose called name is the
    /// root's name (`save` for `repo.save()` through an untyped receiver) — calls that may
    /// reach it without an edge saying so. For a class, the sum over its sections.
    pub unresolved: usize,
}

/// A call site the indexer could not resolve whose called name is the root's (see
/// [`Counts::unresolved`]): where it is and what it calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnresolvedSite<'a> {
    /// The file of the call.
    pub file: &'a str,
    /// Its line.
    pub line: u32,
    /// The callee as written (`this.repo.save`).
    pub callee: &'a str,
    /// The ID of the function or method making the call.
    pub caller: &'a str,
    /// The functions and methods of the project with the called name, which the call may
    /// reach (the symbol asked about among them), the first few by ID.
    pub candidates: &'a [String],
    /// How many there are in all.
    pub candidate_count: usize,
}

/// The facts every result node shares, so encoders can hoist them or drop their columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Facets {
    /// `Some(v)` when every node's `exported` is `v`.
    pub exported: Option<bool>,
    /// Whether any node has a signature fact (parameters, a return or declared type, a
    /// modifier such as async, static, readonly, or a visibility).
    pub signature: bool,
    /// Search and file symbols: whether any node extends something
    /// ([`crate::NodeInfo::extends`]).
    pub extends: bool,
    /// Traversals: whether any node was reached through a call that may happen
    /// ([`crate::NodeInfo::may_call`]).
    pub may_call: bool,
}

/// Results of one file left out of a listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileCount<'a> {
    /// The file.
    pub file: &'a str,
    /// How many of its results were left out.
    pub nodes: usize,
}

/// What a listed part of an answer leaves out, and how to continue (see [`Header::listing`]).
/// Results are listed in depth order — every direct result before any transitive one —,
/// then by position; a page is the results from `offset` on that fit the budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Listing<'a> {
    /// Results skipped before the first listed.
    pub offset: usize,
    /// Results listed (the nodes that follow).
    pub listed: usize,
    /// Results in the whole answer.
    pub total: usize,
    /// The budget that cut the listing, in tokens (`usize::MAX`: none; an offset alone).
    pub budget: usize,
    /// The files of the results left out after the listed ones, most results first (the
    /// first few files).
    pub unlisted_files: &'a [FileCount<'a>],
    /// Files left out beyond `unlisted_files`, and their results.
    pub more_files: usize,
    /// Results in those files.
    pub more_nodes: usize,
    /// Whether the totals are exact: the traversal reached everything within its bounds
    /// (otherwise it stopped at its node limit and they are lower bounds).
    pub exact: bool,
    /// The commit generation of the snapshot answered: a continuation passes it back.
    pub generation: u64,
    /// The generation the asked offset belonged to, when it is not this one (the pages may
    /// not line up: results may have moved).
    pub stale_from: Option<u64>,
}

impl Listing<'_> {
    /// The offset that continues the listing, or `None` when nothing follows the page.
    pub fn next_offset(&self) -> Option<usize> {
        let next = self.offset + self.listed;
        (next < self.total).then_some(next)
    }

    /// Results after the page (left out of this answer and listed by a continuation).
    pub fn after(&self) -> usize {
        self.total.saturating_sub(self.offset + self.listed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edge_counts_count_each_kind_apart() {
        let mut counts = EdgeCounts::default();
        counts.add(EdgeKind::Calls);
        counts.add(EdgeKind::Calls);
        counts.add(EdgeKind::Contains);
        assert_eq!(counts.get(EdgeKind::Calls), 2);
        assert_eq!(counts.get(EdgeKind::Contains), 1);
        assert_eq!(counts.get(EdgeKind::Imports), 0);
        assert_eq!(counts.total(), 3);
        assert_eq!(counts.total_but(EdgeKind::Contains), 2);
        let listed: Vec<_> = counts.iter().filter(|(_, n)| *n > 0).collect();
        assert_eq!(listed, vec![(EdgeKind::Contains, 1), (EdgeKind::Calls, 2)]);
    }

    #[test]
    fn a_listing_continues_until_its_total() {
        let listing = Listing {
            offset: 10,
            listed: 5,
            total: 20,
            budget: 100,
            unlisted_files: &[],
            more_files: 0,
            more_nodes: 0,
            exact: true,
            generation: 1,
            stale_from: None,
        };
        assert_eq!(listing.next_offset(), Some(15));
        assert_eq!(listing.after(), 5);
        let last = Listing {
            listed: 10,
            ..listing
        };
        assert_eq!(last.next_offset(), None);
        assert_eq!(last.after(), 0);
    }
}
