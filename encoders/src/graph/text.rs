//! The hierarchical text encoder: results grouped by file, then kind, with counts; every
//! result with the `offset`/`limit` an agent passes to its Read tool; optional source lines
//! per result; a summary line; transitive results with the chain they were reached through;
//! for an answer listed in part, the results per depth, which part is listed, the files of
//! what was left out and the `--offset` that continues it; a completeness line last.
//!
//! ```text
//! callers of src/utils.ts:formatDate [15-20] Function export (date: Date): string
//!   offset: 15, limit: 6
//!   module: ., package: shop
//! 3 callers: 2 direct, 1 transitive, in 3 files and 1 package
//!
//! src/controller.ts (1 caller):
//!   functions[1]:
//!     handleOrder [8-14] export async (req: Request): Promise<Order>
//!       offset: 8, limit: 7
//!       through: src/orderService.ts:createOrder
//! ```

use std::io::{self, Write};

use tsgraph_query::engine::{EdgeKind, NodeView};
use tsgraph_query::{
    Answer, Budget, Dependency, DependencyImport, DepsQuestion, Direction, EdgeInfo, Group,
    GroupLevel, Grouping, Header, Listing, NodeInfo, QueryError, QueryKind, Question, ResultSink,
    SinkError, Summary, Traversal,
};

use super::budget;
use super::node_fields::{line_count, lines_cell, plural, short_id, signature, unresolved_note};

mod change;
mod listing;

/// Where `--snippets` reads source lines from: the facade implements it over the project's
/// files, confined to the project root.
pub trait SnippetSource {
    /// Appends up to `count` lines of `file` (relative to the project root) starting at the
    /// 1-based line `first` to `out`.
    fn lines(&self, file: &str, first: u32, count: u32, out: &mut Vec<String>) -> io::Result<()>;
}

/// Writes results as indented text.
pub struct TextSink<'s, W: Write> {
    out: W,
    kind: QueryKind,
    /// The file group being written (IDs inside it are written without the file).
    file: Option<String>,
    /// Indentation of nodes: below the file and kind headers, or the nesting of file symbols.
    indent: usize,
    snippets: u32,
    source: Option<&'s dyn SnippetSource>,
    lines: String,
    sig: String,
    scratch: Vec<String>,
    wrote_edge_header: bool,
    edges_total: usize,
    /// Deps: the dependencies of each list (project packages, external ones), whether that
    /// list's header was written, and the package whose imports are being listed.
    deps: [(usize, bool); 2],
    import_package: Option<(String, bool)>,
    /// The answer's token budget and the offset it lists from.
    budget: Budget,
}

impl<W: Write> TextSink<'static, W> {
    /// A sink writing into `out`, without source lines.
    pub fn new(out: W) -> TextSink<'static, W> {
        TextSink {
            out,
            kind: QueryKind::Callers,
            file: None,
            indent: 0,
            snippets: 0,
            source: None,
            lines: String::new(),
            sig: String::new(),
            scratch: Vec::new(),
            wrote_edge_header: false,
            edges_total: 0,
            deps: [(0, false); 2],
            import_package: None,
            budget: Budget::UNBOUNDED,
        }
    }
}

impl<'s, W: Write> TextSink<'s, W> {
    /// Adds `count` source lines per result (at each call site for callers and callees,
    /// else from the symbol's first line), read from `source`.
    pub fn with_snippets(self, count: u32, source: &'s dyn SnippetSource) -> TextSink<'s, W> {
        TextSink {
            snippets: count,
            source: Some(source),
            ..self
        }
    }

    /// The same sink with a token budget (and the offset to list from): an answer that
    /// does not fit lists the results that do, nearest first, with the totals and how to
    /// continue.
    pub fn with_budget(mut self, budget: Budget) -> Self {
        self.budget = budget;
        self
    }

    /// The writer back.
    pub fn into_inner(self) -> W {
        self.out
    }

    /// `N callers: D direct, T transitive, in F files and P packages`: distinct results (one
    /// reached from two methods of a class counts once).
    fn counts_line(&mut self, c: &tsgraph_query::Counts) -> io::Result<()> {
        let total = c.direct + c.transitive;
        writeln!(
            self.out,
            "{} {}: {} direct, {} transitive, in {} and {}",
            total,
            self.noun(total),
            c.direct,
            c.transitive,
            counted(c.files, "file"),
            counted(c.packages, "package")
        )
    }

    fn noun(&self, count: usize) -> &'static str {
        let (one, many) = match self.kind {
            QueryKind::Callers => ("caller", "callers"),
            QueryKind::Callees => ("callee", "callees"),
            QueryKind::Impact | QueryKind::ChangeImpact => ("dependent", "dependents"),
            QueryKind::Neighbors => ("neighbor", "neighbors"),
            QueryKind::Search => ("match", "matches"),
            QueryKind::FileSymbols => ("symbol", "symbols"),
            QueryKind::Path | QueryKind::Export => ("node", "nodes"),
            QueryKind::Deps => ("package", "packages"),
        };
        if count == 1 { one } else { many }
    }

    /// `name [a-b] Kind modifiers (params): type`, without indentation or newline.
    fn describe(&mut self, node: &NodeView<'_>, id: &str, with_kind: bool) -> io::Result<()> {
        lines_cell(node, &mut self.lines);
        signature(node, &mut self.sig);
        write!(self.out, "{id} [{}]", self.lines)?;
        if with_kind {
            write!(self.out, " {}", node.kind())?;
        }
        if node.exported() {
            self.out.write_all(b" export")?;
        }
        if !self.sig.is_empty() {
            write!(self.out, " {}", self.sig)?;
        }
        Ok(())
    }

    fn pad(&mut self, extra: usize) -> io::Result<()> {
        write!(self.out, "{:width$}", "", width = self.indent + extra)
    }

    fn snippet(&mut self, file: &str, first: u32, label: &str) -> io::Result<()> {
        let Some(source) = self.source else {
            return Ok(());
        };
        self.scratch.clear();
        let mut lines = std::mem::take(&mut self.scratch);
        let read = source.lines(file, first, self.snippets, &mut lines);
        self.pad(2)?;
        match read {
            Ok(()) => {
                writeln!(self.out, "{label}:")?;
                for line in &lines {
                    self.pad(4)?;
                    writeln!(self.out, "{line}")?;
                }
            }
            Err(err) => writeln!(self.out, "{label}: (source unavailable: {err})")?,
        }
        self.scratch = lines;
        Ok(())
    }
}

/// `1 file`, `3 files`.
fn counted(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

/// A package name as a line shows it: the empty name of files with no named package.json
/// is `(no package)`.
fn shown_package(name: &str) -> &str {
    if name.is_empty() {
        "(no package)"
    } else {
        name
    }
}

impl<W: Write> TextSink<'_, W> {
    /// Deps: what was asked, then the counts.
    fn deps_header(&mut self, deps: &DepsQuestion<'_>, nodes: usize) -> io::Result<()> {
        let package = shown_package(deps.package);
        match deps.direction {
            Direction::In => write!(self.out, "packages that depend on {package}")?,
            _ => write!(self.out, "packages {package} depends on")?,
        }
        match deps.module {
            Some(module) => writeln!(self.out, " (module {module})")?,
            None => writeln!(self.out, " (outside the project)")?,
        }
        self.deps = [(deps.internal, false), (deps.external, false)];
        self.import_package = None;
        writeln!(
            self.out,
            "{} {}: {} direct, {} transitive, {} outside the project; imports in {}",
            nodes,
            self.noun(nodes),
            deps.direct,
            deps.transitive,
            deps.external,
            counted(deps.files, "file")
        )
    }

    /// Callers, callees, impact, neighbors: the symbol asked about and where it lives, then
    /// the counts (and, for callers, the calls of its name the indexer could not resolve).
    fn traversal_lines(&mut self, header: &Header<'_>, t: &Traversal<'_>) -> io::Result<()> {
        let verb = match t.kind {
            QueryKind::Callers => "callers of",
            QueryKind::Callees => "callees of",
            QueryKind::Impact => "impact of",
            _ => "neighbors of",
        };
        let root = &t.root;
        write!(self.out, "{verb} ")?;
        self.describe(root, root.id(), true)?;
        writeln!(
            self.out,
            "\n  offset: {}, limit: {}",
            root.start_line(),
            line_count(root)
        )?;
        // Where it lives in the workspace (seed 002's hoisted module and package).
        if !root.package().is_empty() {
            writeln!(
                self.out,
                "  module: {}, package: {}",
                root.module(),
                root.package()
            )?;
        }
        if t.kind == QueryKind::Neighbors {
            let total = header.listing.map_or(header.shape.nodes, |l| l.total);
            return writeln!(
                self.out,
                "{} {} within {} hops ({}), {} edges",
                total,
                self.noun(total),
                t.walk.max_depth,
                t.direction.as_str(),
                self.edges_total
            );
        }
        let c = t.walk.counts;
        self.counts_line(&c)?;
        if t.kind == QueryKind::Callers && header.shape.sections == 0 && c.unresolved > 0 {
            writeln!(self.out, "{}", unresolved_note(c.unresolved, root))?;
        }
        // The first few of them (for a class, over all its methods).
        for site in t.unresolved_sites {
            write!(
                self.out,
                "  unresolved: {}:{} {} (in {})",
                site.file, site.line, site.callee, site.caller
            )?;
            if site.candidate_count > 1 {
                let more = site.candidate_count - site.candidates.len();
                write!(self.out, "; may reach {}", site.candidates.join(", "))?;
                if more > 0 {
                    write!(self.out, " and {more} more")?;
                }
            }
            writeln!(self.out)?;
        }
        Ok(())
    }
}

/// How a change impact section names its symbol's change.
fn change_label(change: tsgraph_query::ChangeKind) -> &'static str {
    match change {
        tsgraph_query::ChangeKind::Signature => "signature changed",
        tsgraph_query::ChangeKind::Body => "body changed",
        tsgraph_query::ChangeKind::Added => "added",
        tsgraph_query::ChangeKind::TopLevel => "top-level code changed",
    }
}

/// ` (1 call)`, ` (3 calls)`, nothing for 0.
fn write_calls(out: &mut impl Write, count: u32) -> io::Result<()> {
    match count {
        0 => Ok(()),
        1 => out.write_all(b" (1 call)"),
        n => write!(out, " ({n} calls)"),
    }
}

impl<W: Write> ResultSink for TextSink<'_, W> {
    fn wants_edge_facts(&self) -> bool {
        // Edges are written with their call count alone.
        false
    }

    fn grouping(&self, kind: QueryKind) -> Grouping {
        match kind {
            QueryKind::Search | QueryKind::FileSymbols | QueryKind::Export => Grouping::None,
            _ => Grouping::FileKind,
        }
    }

    fn begin(&mut self, header: &Header<'_>) -> Result<(), SinkError> {
        let shape = header.shape;
        self.kind = header.kind();
        self.file = None;
        self.indent = 0;
        self.wrote_edge_header = false;
        self.edges_total = shape.edges.total_but(EdgeKind::Contains);
        match &header.question {
            Question::Traversal(t) => self.traversal_lines(header, t)?,
            Question::Path(p) => {
                let (from, to) = (p.from.id(), p.to.id());
                if shape.nodes == 0 {
                    writeln!(self.out, "no path from {from} to {to}")?;
                } else if p.reversed {
                    writeln!(
                        self.out,
                        "no path from {to} to {from}; reversed, the path from {from} to {to}:"
                    )?;
                } else {
                    writeln!(self.out, "path from {from} to {to}:")?;
                }
            }
            Question::Search(page) => {
                let shown = shape.nodes;
                write!(
                    self.out,
                    "search {:?}: {} {}",
                    page.pattern,
                    page.total,
                    self.noun(page.total)
                )?;
                if shown < page.total {
                    write!(
                        self.out,
                        " (showing {}-{})",
                        page.offset + 1,
                        page.offset + shown
                    )?;
                }
                writeln!(self.out)?;
            }
            Question::FileSymbols { file } => {
                writeln!(
                    self.out,
                    "{file} ({} {}):",
                    shape.nodes,
                    self.noun(shape.nodes)
                )?;
                self.file = Some((*file).to_owned());
                self.indent = 2;
            }
            Question::Export => {}
            Question::Deps(d) => self.deps_header(d, shape.nodes)?,
            Question::ChangeImpact(change) => self.change_lines(change)?,
        }
        Ok(self.listing_lines(header)?)
    }

    fn unlisted(&mut self, listing: &Listing<'_>) -> Result<bool, SinkError> {
        self.unlisted_lines(listing)?;
        Ok(true)
    }

    fn budget(&self) -> Option<Budget> {
        Some(self.budget)
    }

    fn measure(&self, limit: usize, answer: &mut Answer<'_>) -> Result<Option<usize>, QueryError> {
        let (snippets, source) = (self.snippets, self.source);
        budget::measure(
            limit,
            |meter| match source {
                Some(source) => TextSink::new(meter).with_snippets(snippets, source),
                None => TextSink::new(meter),
            },
            answer,
        )
    }

    fn group(&mut self, group: &Group<'_>) -> Result<bool, SinkError> {
        match group.level {
            GroupLevel::Section => {
                self.indent = 0;
                writeln!(self.out)?;
                match &group.node {
                    Some(target) => {
                        let id = target.id().to_owned();
                        self.describe(target, &id, true)?;
                        if let Some(change) = group.change {
                            write!(self.out, " [{}]", change_label(change))?;
                        }
                        writeln!(self.out, " ({} {}):", group.nodes, self.noun(group.nodes))?;
                        if group.unresolved > 0 {
                            writeln!(self.out, "  {}", unresolved_note(group.unresolved, target))?;
                        }
                    }
                    None => writeln!(self.out, "path {} ({} hops):", group.index + 1, group.edges)?,
                }
                if self.kind == QueryKind::Path {
                    self.indent = 2;
                }
            }
            GroupLevel::File => {
                writeln!(self.out)?;
                writeln!(
                    self.out,
                    "{} ({} {}):",
                    group.name,
                    group.nodes,
                    self.noun(group.nodes)
                )?;
                self.file = Some(group.name.to_owned());
            }
            GroupLevel::Kind => {
                let name = group.kind.map_or("nodes", plural);
                writeln!(self.out, "  {name}[{}]:", group.nodes)?;
                self.indent = 4;
            }
            GroupLevel::Module | GroupLevel::Package => {
                writeln!(self.out, "{}:", group.name)?;
            }
        }
        Ok(true)
    }

    fn node(&mut self, node: &NodeView<'_>, info: &NodeInfo<'_>) -> Result<bool, SinkError> {
        let nested = if self.kind == QueryKind::FileSymbols {
            2 * info.depth as usize
        } else {
            0
        };
        let id = match self.kind {
            QueryKind::FileSymbols
            | QueryKind::Callers
            | QueryKind::Callees
            | QueryKind::Impact
            | QueryKind::ChangeImpact
            | QueryKind::Neighbors => short_id(node.id(), self.file.as_deref()).to_owned(),
            _ => node.id().to_owned(),
        };
        let with_kind = matches!(
            self.kind,
            QueryKind::Path | QueryKind::Search | QueryKind::FileSymbols | QueryKind::Export
        );
        self.pad(nested)?;
        if self.kind == QueryKind::Path {
            write!(self.out, "{}. ", info.depth + 1)?;
        }
        self.describe(node, &id, with_kind)?;
        if let Some(matched) = info.matched {
            write!(self.out, " ({} match)", matched.as_str())?;
        }
        writeln!(self.out)?;
        self.pad(nested + 2)?;
        writeln!(
            self.out,
            "offset: {}, limit: {}",
            node.start_line(),
            line_count(node)
        )?;
        if let Some(via) = info.via {
            if matches!(
                self.kind,
                QueryKind::Impact | QueryKind::ChangeImpact | QueryKind::Neighbors
            ) {
                self.pad(2)?;
                writeln!(
                    self.out,
                    "relationship: {} ({})",
                    via.kind,
                    if info.depth > 1 {
                        "transitive"
                    } else {
                        "direct"
                    }
                )?;
            }
            if info.may_call {
                self.pad(2)?;
                writeln!(
                    self.out,
                    "may call: dispatch to an override or implementation, or a table entry called by a computed key"
                )?;
            }
            if !info.chain.is_empty() {
                self.pad(2)?;
                writeln!(self.out, "through: {}", info.chain.join(" → "))?;
            }
        }
        if self.snippets > 0 {
            let sites: Vec<u32> = info
                .via
                .and_then(|v| v.edge)
                .filter(|_| info.via.is_some_and(|v| v.from_node))
                .map(|e| e.sites().collect())
                .unwrap_or_default();
            if sites.is_empty() {
                self.snippet(node.file(), node.start_line(), "source")?;
            } else {
                for line in sites {
                    let label = format!("call at line {line}");
                    self.snippet(node.file(), line, &label)?;
                }
            }
        }
        Ok(true)
    }

    fn edge(&mut self, edge: &EdgeInfo<'_>) -> Result<bool, SinkError> {
        if self.kind == QueryKind::Path {
            let (from, to) = if edge.reversed {
                (edge.target, edge.source)
            } else {
                (edge.source, edge.target)
            };
            self.pad(0)?;
            write!(self.out, "{from} --{}", edge.kind)?;
            write_calls(&mut self.out, edge.count)?;
            if edge.reversed {
                self.out.write_all(b", implemented by")?;
            }
            if edge.may_call() {
                self.out.write_all(b", may call")?;
            }
            writeln!(self.out, "--> {to}")?;
            return Ok(true);
        }
        if edge.kind == EdgeKind::Contains {
            return Ok(true);
        }
        if !self.wrote_edge_header {
            self.wrote_edge_header = true;
            writeln!(self.out, "\nedges[{}]:", self.edges_total)?;
        }
        write!(self.out, "  {} --{}", edge.source, edge.kind)?;
        write_calls(&mut self.out, edge.count)?;
        writeln!(self.out, "--> {}", edge.target)?;
        Ok(true)
    }

    fn dependency(&mut self, d: &Dependency<'_>) -> Result<bool, SinkError> {
        let list = usize::from(d.external);
        let (count, started) = self.deps[list];
        if !started {
            self.deps[list].1 = true;
            let title = if d.external { "external" } else { "packages" };
            writeln!(self.out, "\n{title}[{count}]:")?;
        }
        write!(self.out, "  {}", shown_package(d.name))?;
        if !d.external {
            write!(self.out, " (module {})", d.module)?;
        }
        if d.depth > 1 {
            write!(
                self.out,
                ", depth {} through {}",
                d.depth,
                shown_package(d.via)
            )?;
        }
        writeln!(self.out, ", {}", counted(d.imports, "import"))?;
        Ok(true)
    }

    fn dependency_import(&mut self, import: &DependencyImport<'_>) -> Result<bool, SinkError> {
        let same = self
            .import_package
            .as_ref()
            .is_some_and(|(name, external)| name == import.package && *external == import.external);
        if !same {
            if self.import_package.is_none() {
                writeln!(
                    self.out,
                    "\nimports (the first {} per package):",
                    tsgraph_query::LISTED_IMPORTS
                )?;
            }
            writeln!(self.out, "  {}:", shown_package(import.package))?;
            self.import_package = Some((import.package.to_owned(), import.external));
        }
        write!(self.out, "    {}", import.from)?;
        if let Some(line) = import.line {
            write!(self.out, ":{line}")?;
        }
        if let Some(to) = import.to {
            write!(self.out, " → {to}")?;
        }
        writeln!(self.out)?;
        Ok(true)
    }

    fn finish(&mut self, summary: &Summary) -> Result<(), SinkError> {
        if summary.truncated && self.kind == QueryKind::Deps {
            writeln!(
                self.out,
                "\ntruncated: more packages exist past depth {}",
                summary.limit
            )?;
        } else if summary.truncated {
            writeln!(
                self.out,
                "\ntruncated: more results exist past the limit of {}",
                summary.limit
            )?;
        }
        if let Some(depth) = summary.deeper() {
            let what = match self.kind {
                QueryKind::Path => "a longer path may exist than --max-depth",
                QueryKind::Neighbors => "more nodes lie past --distance",
                _ => "more results lie past --max-depth",
            };
            writeln!(self.out, "\ndeeper: {what} {depth}")?;
        }
        self.completeness_line(summary)?;
        Ok(self.out.flush()?)
    }
}
