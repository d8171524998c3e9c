//! The JSON encoder: every fact, one object per result, written as it streams.
//!
//! Schema (one object per result, on one line):
//! - **node**: `{"id","kind","name","file","module","package","startLine","endLine","offset",
//!   "limit","exported"}` — `offset` is the start line and `limit` the line count, ready for
//!   an agent's Read tool — plus, when true, `"async"`, `"static"`, `"abstract"`,
//!   `"readonly"`, `"optional"`, `"const"`, `"defaultExport"`; `"visibility"` when declared;
//!   `"parameters"` (`["name: Type", …]`) and `"returnType"` for functions and methods;
//!   `"type"` (the declared type) for other kinds when known.
//! - **edge**: `{"source","target","kind"}` (the stored direction) plus `"calls"` and
//!   `"sites"` (call-site lines) for CALLS and INCLUDES, `"resolution"` for CALLS (`direct`,
//!   `import`, `this`, `typed`, `inferred`, `alias`, `dispatch`), `"context"` for USES_TYPE
//!   and REFERENCES, `"names"` and `"typeOnly"` for IMPORTS, `"reversed": true` on a path
//!   hop walked against the stored direction.
//! - **callers / callees / impact**: `{"query","symbol":node,"maxDepth","edgeKinds":[…],
//!   "summary":{"direct","transitive","files","packages","maxDepth"} (and, in a listed part,
//!   "total" and "byDepth":[…] of the whole answer),
//!   "nodes":[node + "depth",
//!   "via":{"id", "edge": edge}, "chain":[ids from the first hop to via]]}` — a result
//!   reached through a call found by dispatch (to an override or implementation) has
//!   `"mayCall":true` before `"via"`; a class answers
//!   with `"sections":[{"target":node,"nodes":[…]}]`, one per method (and the class itself)
//!   instead of `"nodes"`. Callers add `"unresolved"` and `"unresolvedSites"` (the first few: `{"file","line","call","caller","candidates":[ids],"candidateCount"}`, the functions and methods with the called name) to the summary (and `"unresolved"` to each section):
//!   the call sites of the symbol's name the indexer could not resolve, which may reach it.
//! - **change impact**: `{"query":"change-impact","base","maxDepth","edgeKinds","summary",
//!   "removed":[{"id","kind","startLine","endLine","renamedTo"}],"namedBy":[{"symbol","file",
//!   "line","how"}],"notInGraph":[ids],"sections":[{"target":node,"change":"signature"|"body"|
//!   "added"|"top-level","nodes":[…]}]}` — one section per changed symbol, with its dependents.
//! - **path**: `{"query","from":node,"to":node,"found","paths":[{"nodes":[node + "step"],
//!   "edges":[edge]}]}`, shortest first; a path found only the other way round has
//!   `"reversed":true` after `found`, with `from` and `to` as the path goes.
//! - **neighbors**: `{"query","center":node,"distance","direction","nodes":[node +
//!   "distance"],"edges":[edge]}`.
//! - **search**: `{"query","pattern","total","offset","limit","nodes":[node + "match"]}` —
//!   `total` counts every match, `nodes` is the page.
//! - **file-symbols**: `{"query","file","nodes":[node + "depth" (nesting) + "parent"]}`.
//! - in search and file symbols, a class or interface that extends something has
//!   `"extends"` after its facts: the symbol paths of what it extends, `, `-separated.
//! - **deps**: `{"query","package","module" (null for a package outside the project),
//!   "direction","maxDepth","summary":{"direct","transitive","packages","external","files",
//!   "maxDepth"},"packages":[{"name","module","external","depth","via","imports"}],
//!   "imports":[{"package","external","from","to","line"}]}` — `packages` are the
//!   dependencies (project packages first, then external ones, each by depth and name), `via`
//!   the package each was reached from, `imports` how many file imports create it; the
//!   `imports` array lists the first few of them per dependency (`to` and `line` are null
//!   for an external package).
//! - an answer listed in part (a token budget cut it, or it starts at an offset) has
//!   `"listing":{"offset","listed","total","budget","exact","generation"[,"staleFrom"]}`
//!   before its results and, after them, `"unlisted":[{"file","nodes"}]` (the files of the
//!   results left out, most first), `"moreFiles"`, `"moreNodes"` and `"next":{"offset",
//!   "generation"}` (`null` on the last page).
//! - every result ends with `"complete"` (nothing left out, nothing past the bounds) and
//!   `"truncated"`; `true` adds `"limit"`, the limit that applied;
//!   a walk cut by its depth bound adds `"deeperThan"`, the bound (edges lead further; for a
//!   path not found, a longer one may exist).
//! - **errors** (written by the CLI, same exit codes): `{"error":{"code","message",…}}`, see
//!   `tsgraph::Error::to_json`.

use std::io::{self, Write};

use tsgraph_query::engine::{EdgeKind, EdgeView, NodeFlags, NodeView, Visibility};
use tsgraph_query::{
    Answer, Budget, Dependency, DependencyImport, DepsQuestion, EdgeInfo, EdgeKinds, Group,
    GroupLevel, Header, Listing, NodeInfo, QueryError, QueryKind, Question, ResultSink, SinkError,
    Summary, Traversal, UnresolvedSite, Walk,
};

use super::budget;
use super::node_fields::{is_callable, line_count};

mod change;
mod listing;

/// Writes results as JSON objects.
pub struct JsonSink<W: Write> {
    out: W,
    kind: QueryKind,
    /// A node was written into the open array.
    wrote_node: bool,
    /// The edges array of the current section (or result) is open.
    edges_open: bool,
    wrote_edge: bool,
    /// Sections (class methods, paths) are written as objects of a `sections`/`paths` array.
    sectioned: bool,
    section_open: bool,
    sections_written: usize,
    /// Deps: whether the `imports` array is open.
    imports_open: bool,
    /// The answer's token budget and the offset it lists from.
    budget: Budget,
    /// What follows the results of a listed answer (`"unlisted"`, `"next"`).
    tail: Vec<u8>,
}

impl<W: Write> JsonSink<W> {
    /// A sink writing into `out`.
    pub fn new(out: W) -> JsonSink<W> {
        JsonSink {
            out,
            kind: QueryKind::Callers,
            wrote_node: false,
            edges_open: false,
            wrote_edge: false,
            sectioned: false,
            section_open: false,
            sections_written: 0,
            imports_open: false,
            budget: Budget::UNBOUNDED,
            tail: Vec::new(),
        }
    }

    /// The same sink with a token budget (JSON has none by default) and the offset to list
    /// from.
    pub fn with_budget(mut self, budget: Budget) -> JsonSink<W> {
        self.budget = budget;
        self
    }

    /// The writer back.
    pub fn into_inner(self) -> W {
        self.out
    }

    fn string(&mut self, value: &str) -> io::Result<()> {
        string(&mut self.out, value)
    }

    /// A node's facts, without the closing brace (callers add their fields).
    fn node_object(&mut self, node: &NodeView<'_>) -> io::Result<()> {
        self.out.write_all(b"{\"id\":")?;
        self.string(node.id())?;
        write!(self.out, ",\"kind\":\"{}\",\"name\":", node.kind())?;
        self.string(node.name())?;
        self.out.write_all(b",\"file\":")?;
        self.string(node.file())?;
        self.out.write_all(b",\"module\":")?;
        self.string(node.module())?;
        self.out.write_all(b",\"package\":")?;
        self.string(node.package())?;
        write!(
            self.out,
            ",\"startLine\":{},\"endLine\":{},\"offset\":{},\"limit\":{},\"exported\":{}",
            node.start_line(),
            node.end_line(),
            node.start_line(),
            line_count(node),
            node.exported()
        )?;
        let flags = node.flags();
        for (flag, key) in [
            (NodeFlags::ASYNC, "async"),
            (NodeFlags::STATIC, "static"),
            (NodeFlags::ABSTRACT, "abstract"),
            (NodeFlags::READONLY, "readonly"),
            (NodeFlags::OPTIONAL, "optional"),
            (NodeFlags::CONST, "const"),
            (NodeFlags::DEFAULT_EXPORT, "defaultExport"),
        ] {
            if flags.has(flag) {
                write!(self.out, ",\"{key}\":true")?;
            }
        }
        if node.visibility() != Visibility::Default {
            write!(self.out, ",\"visibility\":\"{}\"", node.visibility())?;
        }
        if is_callable(node.kind()) {
            self.out.write_all(b",\"parameters\":[")?;
            for (i, parameter) in node.parameters().enumerate() {
                if i > 0 {
                    self.out.write_all(b",")?;
                }
                self.string(parameter)?;
            }
            self.out.write_all(b"]")?;
            if !node.type_text().is_empty() {
                self.out.write_all(b",\"returnType\":")?;
                self.string(node.type_text())?;
            }
        } else if !node.type_text().is_empty() {
            self.out.write_all(b",\"type\":")?;
            self.string(node.type_text())?;
        }
        Ok(())
    }

    /// An edge's facts, without the closing brace.
    fn edge_facts(&mut self, kind: EdgeKind, stored: Option<EdgeView<'_>>) -> io::Result<()> {
        match stored {
            Some(stored) => edge_fact_fields(&mut self.out, kind, stored, "calls"),
            None => Ok(()),
        }
    }

    fn close_section(&mut self) -> io::Result<()> {
        if self.section_open {
            if self.kind == QueryKind::Path && !self.wrote_edge {
                self.out.write_all(b"],\"edges\":[")?;
            }
            self.out.write_all(b"]}")?;
            self.section_open = false;
        }
        Ok(())
    }
}

impl<W: Write> ResultSink for JsonSink<W> {
    fn begin(&mut self, header: &Header<'_>) -> Result<(), SinkError> {
        let shape = header.shape;
        self.kind = header.kind();
        self.tail.clear();
        self.wrote_node = false;
        self.edges_open = false;
        self.wrote_edge = false;
        self.section_open = false;
        self.sections_written = 0;
        self.imports_open = false;
        write!(self.out, "{{\"query\":\"{}\"", self.kind.as_str())?;
        if let Question::Deps(deps) = &header.question {
            return Ok(self.deps_header(deps)?);
        }
        self.question_fields(header)?;
        if let Some(walk) = header.walk() {
            self.edge_kinds(walk.edge_kinds)?;
        } else if let Question::Path(p) = &header.question {
            self.edge_kinds(p.edge_kinds)?;
        }
        match &header.question {
            Question::Traversal(t) if t.kind != QueryKind::Neighbors => {
                self.walk_summary(header, &t.walk, Some(t))?;
            }
            Question::ChangeImpact(change) => self.walk_summary(header, &change.walk, None)?,
            _ => {}
        }
        self.change_arrays(header)?;
        self.listing_object(header)?;
        self.sectioned =
            shape.sections > 0 || matches!(self.kind, QueryKind::Path | QueryKind::ChangeImpact);
        if self.kind == QueryKind::Path {
            self.out.write_all(b",\"paths\":[")?;
            if shape.sections == 0 && shape.nodes > 0 {
                self.out.write_all(b"{\"nodes\":[")?;
                self.section_open = true;
            }
        } else if self.sectioned {
            self.out.write_all(b",\"sections\":[")?;
        } else {
            self.out.write_all(b",\"nodes\":[")?;
        }
        Ok(())
    }

    fn group(&mut self, group: &Group<'_>) -> Result<bool, SinkError> {
        if group.level != GroupLevel::Section {
            return Ok(true);
        }
        let first = self.sections_written == 0;
        self.sections_written += 1;
        self.close_section()?;
        if !first {
            self.out.write_all(b",")?;
        }
        self.out.write_all(b"{")?;
        if let Some(target) = &group.node {
            self.out.write_all(b"\"target\":")?;
            self.node_object(target)?;
            self.out.write_all(b"},")?;
        }
        if self.kind == QueryKind::Callers {
            write!(self.out, "\"unresolved\":{},", group.unresolved)?;
        }
        if let Some(change) = group.change {
            write!(self.out, "\"change\":\"{}\",", change.as_str())?;
        }
        self.out.write_all(b"\"nodes\":[")?;
        self.section_open = true;
        self.wrote_node = false;
        self.wrote_edge = false;
        self.edges_open = false;
        Ok(true)
    }

    fn node(&mut self, node: &NodeView<'_>, info: &NodeInfo<'_>) -> Result<bool, SinkError> {
        if self.wrote_node {
            self.out.write_all(b",")?;
        }
        self.wrote_node = true;
        self.node_object(node)?;
        if !info.extends.is_empty() {
            self.out.write_all(b",\"extends\":")?;
            self.string(info.extends)?;
        }
        match self.kind {
            QueryKind::Path => write!(self.out, ",\"step\":{}", info.depth)?,
            QueryKind::Neighbors => write!(self.out, ",\"distance\":{}", info.depth)?,
            QueryKind::Callers
            | QueryKind::Callees
            | QueryKind::Impact
            | QueryKind::ChangeImpact => write!(self.out, ",\"depth\":{}", info.depth)?,
            QueryKind::FileSymbols => {
                write!(self.out, ",\"depth\":{}", info.depth)?;
                if let Some(parent) = info.parent {
                    self.out.write_all(b",\"parent\":")?;
                    self.string(parent)?;
                }
            }
            QueryKind::Search => {
                if let Some(matched) = info.matched {
                    write!(self.out, ",\"match\":\"{}\"", matched.as_str())?;
                }
            }
            QueryKind::Export | QueryKind::Deps => {}
        }
        if info.may_call {
            self.out.write_all(b",\"mayCall\":true")?;
        }
        if let Some(via) = info.via {
            self.out.write_all(b",\"via\":{\"id\":")?;
            self.string(via.id)?;
            self.out.write_all(b",\"edge\":{\"source\":")?;
            let (source, target) = if via.from_node {
                (node.id(), via.id)
            } else {
                (via.id, node.id())
            };
            self.string(source)?;
            self.out.write_all(b",\"target\":")?;
            self.string(target)?;
            write!(self.out, ",\"kind\":\"{}\"", via.kind)?;
            self.edge_facts(via.kind, via.edge)?;
            self.out.write_all(b"}}")?;
            if !info.chain.is_empty() {
                self.out.write_all(b",\"chain\":[")?;
                for (i, id) in info.chain.iter().enumerate() {
                    if i > 0 {
                        self.out.write_all(b",")?;
                    }
                    self.string(id)?;
                }
                self.out.write_all(b"]")?;
            }
        }
        self.out.write_all(b"}")?;
        Ok(true)
    }

    fn edge(&mut self, edge: &EdgeInfo<'_>) -> Result<bool, SinkError> {
        self.out.write_all(if self.wrote_edge {
            b","
        } else {
            b"],\"edges\":["
        })?;
        self.wrote_edge = true;
        self.edges_open = true;
        self.out.write_all(b"{\"source\":")?;
        self.string(edge.source)?;
        self.out.write_all(b",\"target\":")?;
        self.string(edge.target)?;
        write!(self.out, ",\"kind\":\"{}\"", edge.kind)?;
        self.edge_facts(edge.kind, edge.stored)?;
        if edge.reversed {
            self.out.write_all(b",\"reversed\":true")?;
        }
        self.out.write_all(b"}")?;
        Ok(true)
    }

    fn dependency(&mut self, d: &Dependency<'_>) -> Result<bool, SinkError> {
        if self.wrote_node {
            self.out.write_all(b",")?;
        }
        self.wrote_node = true;
        self.out.write_all(b"{\"name\":")?;
        self.string(d.name)?;
        self.out.write_all(b",\"module\":")?;
        self.string(d.module)?;
        write!(
            self.out,
            ",\"external\":{},\"depth\":{},\"via\":",
            d.external, d.depth
        )?;
        self.string(d.via)?;
        write!(self.out, ",\"imports\":{}}}", d.imports)?;
        Ok(true)
    }

    fn dependency_import(&mut self, import: &DependencyImport<'_>) -> Result<bool, SinkError> {
        self.out.write_all(if self.imports_open {
            b","
        } else {
            b"],\"imports\":["
        })?;
        self.imports_open = true;
        self.out.write_all(b"{\"package\":")?;
        self.string(import.package)?;
        write!(self.out, ",\"external\":{},\"from\":", import.external)?;
        self.string(import.from)?;
        self.out.write_all(b",\"to\":")?;
        match import.to {
            Some(to) => self.string(to)?,
            None => self.out.write_all(b"null")?,
        }
        match import.line {
            Some(line) => write!(self.out, ",\"line\":{line}}}")?,
            None => self.out.write_all(b",\"line\":null}")?,
        }
        Ok(true)
    }

    fn unlisted(&mut self, listing: &Listing<'_>) -> Result<bool, SinkError> {
        self.keep_unlisted(listing)?;
        Ok(true)
    }

    fn budget(&self) -> Option<Budget> {
        Some(self.budget)
    }

    fn measure(&self, limit: usize, answer: &mut Answer<'_>) -> Result<Option<usize>, QueryError> {
        budget::measure(limit, JsonSink::new, answer)
    }

    fn finish(&mut self, summary: &Summary) -> Result<(), SinkError> {
        if self.kind == QueryKind::Deps {
            self.out.write_all(if self.imports_open {
                b"]"
            } else {
                b"],\"imports\":[]"
            })?;
            return Ok(self.end_result(summary)?);
        }
        let has_edges = matches!(
            self.kind,
            QueryKind::Path | QueryKind::Neighbors | QueryKind::Export
        );
        if self.sectioned {
            self.close_section()?;
            self.out.write_all(b"]")?;
        } else if self.wrote_edge || !has_edges {
            self.out.write_all(b"]")?;
        } else {
            self.out.write_all(b"],\"edges\":[]")?;
        }
        Ok(self.end_result(summary)?)
    }
}

impl<W: Write> JsonSink<W> {
    /// Deps: the question and the counts, then the `packages` array opens.
    fn deps_header(&mut self, deps: &DepsQuestion<'_>) -> io::Result<()> {
        self.out.write_all(b",\"package\":")?;
        self.string(deps.package)?;
        self.out.write_all(b",\"module\":")?;
        match deps.module {
            Some(module) => self.string(module)?,
            None => self.out.write_all(b"null")?,
        }
        write!(
            self.out,
            ",\"direction\":\"{}\",\"maxDepth\":{},\"summary\":{{\"direct\":{},\"transitive\":{},\"packages\":{},\"external\":{},\"files\":{},\"maxDepth\":{}}},\"packages\":[",
            deps.direction.as_str(),
            deps.max_depth,
            deps.direct,
            deps.transitive,
            deps.internal,
            deps.external,
            deps.files,
            deps.deepest
        )
    }

    /// What was asked: the symbol (with its facts) or the endpoints, the bounds, the
    /// pattern or file.
    fn question_fields(&mut self, header: &Header<'_>) -> io::Result<()> {
        match &header.question {
            Question::Traversal(t) => {
                self.out.write_all(if t.kind == QueryKind::Neighbors {
                    b",\"center\":"
                } else {
                    b",\"symbol\":"
                })?;
                self.node_object(&t.root)?;
                self.out.write_all(b"}")?;
                if t.kind == QueryKind::Neighbors {
                    write!(
                        self.out,
                        ",\"distance\":{},\"direction\":\"{}\"",
                        t.walk.max_depth,
                        t.direction.as_str()
                    )?;
                } else {
                    write!(self.out, ",\"maxDepth\":{}", t.walk.max_depth)?;
                }
            }
            Question::Path(p) => {
                self.out.write_all(b",\"from\":")?;
                self.node_object(&p.from)?;
                self.out.write_all(b"},\"to\":")?;
                self.node_object(&p.to)?;
                self.out.write_all(b"}")?;
                write!(self.out, ",\"found\":{}", header.shape.nodes > 0)?;
                if p.reversed {
                    self.out.write_all(b",\"reversed\":true")?;
                }
            }
            Question::Search(page) => {
                self.out.write_all(b",\"pattern\":")?;
                self.string(page.pattern)?;
                write!(
                    self.out,
                    ",\"total\":{},\"offset\":{},\"limit\":{}",
                    page.total, page.offset, page.limit
                )?;
            }
            Question::FileSymbols { file } => {
                self.out.write_all(b",\"file\":")?;
                self.string(file)?;
            }
            Question::Export | Question::Deps(_) => {}
            Question::ChangeImpact(change) => {
                self.out.write_all(b",\"base\":")?;
                self.string(change.diff)?;
                write!(self.out, ",\"maxDepth\":{}", change.walk.max_depth)?;
            }
        }
        Ok(())
    }

    /// `"edgeKinds":[…]`.
    fn edge_kinds(&mut self, kinds: EdgeKinds) -> io::Result<()> {
        self.out.write_all(b",\"edgeKinds\":[")?;
        for (i, kind) in kinds.iter().enumerate() {
            if i > 0 {
                self.out.write_all(b",")?;
            }
            write!(self.out, "\"{kind}\"")?;
        }
        self.out.write_all(b"]")
    }

    /// `"summary":{…}` of a walk: its counts; for a listed part the whole answer's total
    /// and results per depth; for callers the unresolved calls of the root's name.
    fn walk_summary(
        &mut self,
        header: &Header<'_>,
        walk: &Walk<'_>,
        traversal: Option<&Traversal<'_>>,
    ) -> io::Result<()> {
        let c = walk.counts;
        write!(
            self.out,
            ",\"summary\":{{\"direct\":{},\"transitive\":{},\"files\":{},\"packages\":{},\"maxDepth\":{}",
            c.direct, c.transitive, c.files, c.packages, c.max_depth
        )?;
        // A listed part: what its nodes no longer show (the whole answer's total and
        // results per depth).
        if header.listing.is_some() && !walk.by_depth.is_empty() {
            write!(self.out, ",\"total\":{}", c.direct + c.transitive)?;
            self.out.write_all(b",\"byDepth\":[")?;
            for (i, count) in walk.by_depth.iter().enumerate() {
                if i > 0 {
                    self.out.write_all(b",")?;
                }
                write!(self.out, "{count}")?;
            }
            self.out.write_all(b"]")?;
        }
        if let Some(t) = traversal.filter(|t| t.kind == QueryKind::Callers) {
            write!(self.out, ",\"unresolved\":{}", c.unresolved)?;
            // The first few of them; the count covers all.
            self.out.write_all(b",\"unresolvedSites\":[")?;
            for (i, site) in t.unresolved_sites.iter().enumerate() {
                if i > 0 {
                    self.out.write_all(b",")?;
                }
                self.unresolved_site(site)?;
            }
            self.out.write_all(b"]")?;
        }
        self.out.write_all(b"}")
    }

    /// One unresolved call site with the candidates it may reach.
    fn unresolved_site(&mut self, site: &UnresolvedSite<'_>) -> io::Result<()> {
        self.out.write_all(b"{\"file\":")?;
        self.string(site.file)?;
        write!(self.out, ",\"line\":{},\"call\":", site.line)?;
        self.string(site.callee)?;
        self.out.write_all(b",\"caller\":")?;
        self.string(site.caller)?;
        self.out.write_all(b",\"candidates\":[")?;
        for (j, id) in site.candidates.iter().enumerate() {
            if j > 0 {
                self.out.write_all(b",")?;
            }
            self.string(id)?;
        }
        write!(self.out, "],\"candidateCount\":{}}}", site.candidate_count)
    }

    /// `"truncated"` (and `"limit"`, `"stopped"`) and the closing brace.
    fn end_result(&mut self, summary: &Summary) -> io::Result<()> {
        self.out.write_all(&self.tail)?;
        write!(self.out, ",\"complete\":{}", summary.complete())?;
        write!(self.out, ",\"truncated\":{}", summary.truncated)?;
        if summary.truncated {
            write!(self.out, ",\"limit\":{}", summary.limit)?;
        }
        if let Some(depth) = summary.deeper() {
            write!(self.out, ",\"deeperThan\":{depth}")?;
        }
        if summary.stopped {
            self.out.write_all(b",\"stopped\":true")?;
        }
        self.out.write_all(b"}\n")?;
        self.out.flush()
    }
}

/// Writes `value` as a JSON string.
pub(super) fn string(out: &mut impl Write, value: &str) -> io::Result<()> {
    serde_json::to_writer(out, value).map_err(io::Error::from)
}

/// An edge's stored facts as JSON fields, each with its leading comma: the call count (under
/// `count_key`), sites and resolution of CALLS and INCLUDES, the context of USES_TYPE and
/// REFERENCES, the names of IMPORTS.
pub(super) fn edge_fact_fields(
    out: &mut impl Write,
    kind: EdgeKind,
    stored: EdgeView<'_>,
    count_key: &str,
) -> io::Result<()> {
    match kind {
        EdgeKind::Calls | EdgeKind::Includes => {
            write!(out, ",\"{count_key}\":{},\"sites\":[", stored.count())?;
            for (i, line) in stored.sites().enumerate() {
                if i > 0 {
                    out.write_all(b",")?;
                }
                write!(out, "{line}")?;
            }
            out.write_all(b"]")?;
            if kind == EdgeKind::Calls {
                write!(out, ",\"resolution\":\"{}\"", stored.resolution())?;
            }
        }
        EdgeKind::UsesType | EdgeKind::References => {
            write!(out, ",\"context\":\"{}\"", stored.context())?;
        }
        EdgeKind::Imports => {
            out.write_all(b",\"names\":[")?;
            for (i, name) in stored.names().enumerate() {
                if i > 0 {
                    out.write_all(b",")?;
                }
                string(out, name)?;
            }
            write!(out, "],\"typeOnly\":{}", stored.type_only())?;
        }
        _ => {}
    }
    Ok(())
}
