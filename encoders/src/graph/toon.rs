//! The TOON encoder of query results: the fewest tokens that still carry every fact, after
//! the plan of the design documents (phases 1–6).
//!
//! What it leaves out, because it follows from what is written:
//! - `name` and `file` of a node: both are in its ID (`file:Symbol.path`); when every node
//!   shares one file it is hoisted (`file:`) and IDs in it are written as symbol paths (a
//!   file node keeps its path; an ID with a `:` is a whole ID of another file).
//! - `start`, `end` and `length` of a path, and its edges' ends: the nodes are in path
//!   order, so edges are `edges[n]{type,calls}` rows, hop by hop. An IMPLEMENTS hop between
//!   two members goes from the interface member to the member implementing it.
//! - node and edge counts (the array lengths say them); the center of neighbors in the
//!   groups (it is the `center` object).
//! - CONTAINS edges: their source is always the target's container (its ID without the last
//!   `.segment`, or its file), so they follow from the IDs.
//! - `extends` (search and file symbols: what a class or interface extends, first column as
//!   seed 002 has it) in a group where nothing extends anything.
//! - columns a kind group does not need: `exported` when none of its rows is exported, `sig`
//!   when none has a signature (a missing cell reads as the default).
//! - `may` (callers, callees, impact: `true` for a result reached through a call found by
//!   dispatch — a call of an interface or base member that may reach an override or
//!   implementation —, not one that certainly happens) in a group where no row is one.
//! - `unresolved` (callers: call sites of the symbol's name the indexer could not resolve,
//!   which may reach it; per target for a class) when it is 0, and `unresolvedSites` (the
//!   first few of them, `{file,line,call,candidates}`: `candidates` are the functions and
//!   methods with the called name that the call may reach, space-separated, `+N` for more)
//!   when there are none.
//! - defaults: `maxDepth` 5, `distance` 1, `direction` both, the default edge kinds,
//!   `truncated` false, `exported` false, an empty signature, a direct result's `via` (the
//!   root, written `null`).
//! - a module, package or `exported` value shared by every node: one top-level line instead
//!   of a column; when modules or packages differ, nodes are grouped by module, then package.
//!
//! A path asked the wrong way round (none from the start to the end, one from the end to the
//! start) is answered the way it exists, after a `reversed: true` line.
//!
//! A walk cut by its depth bound ends with `deeperThan: N` (edges lead past `N` hops; for a
//! path not found, a longer one may exist), one cut by its node limit with `truncated: true`
//! and the `limit`; every answer ends with `complete: true|false`.
//!
//! An answer listed in part (its token budget cut it, or it starts at an offset) gives the
//! totals of the whole answer before its rows (`total`, `direct`, `transitive`, `depths[n]`
//! per depth from 1, `files`, `packages` when more than one, `exact: false` when the node
//! limit made them lower bounds), then `listed` (and `offset`, `staleFrom` when the offset
//! came from another generation); after its rows `unlisted[n]{file,nodes}` (the files of the
//! results left out, most first), `moreFiles`/`moreNodes` beyond them, and `next` with the
//! `offset` and `generation` that continue it.
//!
//! Deps write the package asked for (`deps:`, its `module:`, `direction` and `maxDepth` when
//! not the defaults out and 10), then `packages[n]{name,module,depth,via,imports}` (the
//! project's packages), `external[n]{name,depth,via,imports}` (packages outside it; `via` is
//! `null` for direct dependencies, `imports` counts the file imports creating each) and
//! `imports[n]{package,from,to,line}`, the first few of those imports per dependency (`to`
//! and `line` are `null` for an external package).
//!
//! Nodes are grouped by kind (`functions[2]{id,lines,depth,via,sig}:`); `lines` is `a-b`, or
//! the number `a` for one line; `rel` is the kind of each result's via edge (a column when
//! they differ, one line when they do not, nothing for callers and callees reached by calls); `sig` is the signature in one string (`public async (nodes: Node[]): Promise<void>`).
//! For callers of seed 003's `formatDate`:
//!
//! ```text
//! callers: "src/utils.ts:formatDate"
//! kind: Function
//! lines: 15-20
//! package: shop
//! exported: true
//! functions[3]{id,lines,depth,via,sig}:
//!   "src/controller.ts:handleOrder",8-14,2,"src/orderService.ts:createOrder","async (req: Request): Promise<Order>"
//!   …
//! ```

use std::io::Write;

use tsgraph_query::engine::{EdgeKind, NodeView};
use tsgraph_query::{
    Answer, Budget, Dependency, DependencyImport, DepsOptions, Direction, EdgeInfo, EdgeKinds,
    Group, GroupLevel, Grouping, Header, Listing, NodeInfo, QueryError, QueryKind, Question,
    ResultSink, SinkError, Summary, Traversal, TraversalOptions,
};

use super::budget;
use super::node_fields::{lines_cell, plural, short_id, signature};
use crate::toon::{EncodeError, Options, Writer};

mod change;
mod ids;
mod listing;

use ids::IdCells;

/// Writes results as TOON.
pub struct ToonSink<W: Write> {
    writer: Option<Writer<W>>,
    kind: QueryKind,
    /// The file every node shares (IDs are written without it).
    file: Option<String>,
    /// Columns of the node tables.
    exported_column: bool,
    sig_column: bool,
    /// The columns of the open table (a group may drop `exported` and `sig`).
    group_exported: bool,
    group_sig: bool,
    /// The current group has an `extends` column (search and file symbols: a class or
    /// interface of the group extends something).
    group_extends: bool,
    /// The current group has a `may` column (a row reached through a call found by
    /// dispatch).
    group_may: bool,
    rel_column: bool,
    /// Rows left in the open node table.
    rows_left: usize,
    /// Open module/package objects, innermost last.
    open_levels: Vec<GroupLevel>,
    /// Whether a `targets:` object (class sections) or `paths` list (several paths) is open.
    sections: usize,
    section_open: bool,
    /// Edges still to come in the open edge table, and edges to skip (CONTAINS).
    edges_left: usize,
    /// Path sections: hops of the current path.
    hops_left: usize,
    /// Whether the edge table of neighbors or export has its header.
    edge_table_started: bool,
    /// Deps: the dependencies of each table (project packages, external ones) and the
    /// imports still to come.
    deps_internal: usize,
    deps_external: usize,
    imports_left: usize,
    /// Scratch cells, reused for every row.
    lines: String,
    sig: String,
    /// The answer's token budget and the offset it lists from.
    budget: Budget,
    /// The ID cells of the edges between results, made once per node.
    id_cells: IdCells,
}

/// Why a sink refuses calls after `finish`: it writes one document.
const FINISHED: &str = "the TOON sink already finished its document";

/// The lines that say what was asked: the root or endpoints, the bounds that differ from
/// the defaults, the pattern or package. Returns the edge kinds the question followed.
fn question_fields<W: Write>(
    w: &mut Writer<W>,
    header: &Header<'_>,
) -> Result<EdgeKinds, EncodeError> {
    let default_depth = TraversalOptions::default().max_depth;
    Ok(match &header.question {
        Question::Traversal(t) if t.kind == QueryKind::Neighbors => {
            if t.walk.max_depth != 1 {
                w.field("distance", t.walk.max_depth)?;
            }
            if t.direction != Direction::Both {
                w.field("direction", t.direction.as_str())?;
            }
            t.walk.edge_kinds
        }
        Question::Traversal(t) => {
            // The symbol asked about, with its kind and lines (seed 003).
            let root = &t.root;
            w.field(t.kind.as_str(), root.id())?;
            w.field("kind", root.kind().as_str())?;
            if root.start_line() == root.end_line() {
                w.field("lines", u64::from(root.start_line()))?;
            } else {
                let mut lines = String::new();
                lines_cell(root, &mut lines);
                w.field("lines", lines.as_str())?;
            }
            if t.walk.max_depth != default_depth {
                w.field("maxDepth", t.walk.max_depth)?;
            }
            t.walk.edge_kinds
        }
        Question::Path(p) => {
            if header.shape.nodes == 0 {
                w.field("from", p.from.id())?;
                w.field("to", p.to.id())?;
                w.field("found", false)?;
            } else if p.reversed {
                // No path the way asked: this one goes from `to` to `from`.
                w.field("reversed", true)?;
            }
            p.edge_kinds
        }
        Question::Search(page) => {
            w.field("search", page.pattern)?;
            if page.total != header.shape.nodes {
                w.field("total", page.total)?;
                if page.offset > 0 {
                    w.field("offset", page.offset)?;
                }
            }
            EdgeKinds::NONE
        }
        Question::FileSymbols { .. } | Question::Export => EdgeKinds::NONE,
        Question::ChangeImpact(c) => {
            w.field("changeImpact", c.diff)?;
            if c.walk.max_depth != default_depth {
                w.field("maxDepth", c.walk.max_depth)?;
            }
            c.walk.edge_kinds
        }
        Question::Deps(d) => {
            w.field("deps", d.package)?;
            if d.direction != Direction::Out {
                w.field("direction", d.direction.as_str())?;
            }
            if d.max_depth != DepsOptions::default().max_depth {
                w.field("maxDepth", d.max_depth)?;
            }
            if let Some(module) = d.module.filter(|m| !m.is_empty()) {
                w.field("module", module)?;
            }
            EdgeKinds::NONE
        }
    })
}

/// Callers: how many calls of the root's name the indexer could not resolve (they may reach
/// it; a class says it per method, in its targets), and the first few of them (the count
/// covers all; for a class, over all its methods).
fn unresolved_fields<W: Write>(
    w: &mut Writer<W>,
    traversal: &Traversal<'_>,
    sections: usize,
) -> Result<(), EncodeError> {
    let unresolved = traversal.walk.counts.unresolved;
    if sections == 0 && unresolved > 0 {
        w.field("unresolved", unresolved)?;
    }
    let sites = traversal.unresolved_sites;
    if !sites.is_empty() {
        w.key("unresolvedSites")?;
        w.begin_table(sites.len(), &["file", "line", "call", "candidates"])?;
        for site in sites {
            w.row_begin()?;
            w.cell_str(site.file)?;
            w.cell_u64(u64::from(site.line))?;
            w.cell_str(site.callee)?;
            w.cell_str(&candidate_cell(site))?;
            w.row_end()?;
        }
        w.end()?;
    }
    Ok(())
}

/// A write that failed stays an I/O error (a closed pipe is told apart); a broken rule of
/// the TOON writer is a message.
impl From<EncodeError> for SinkError {
    fn from(err: EncodeError) -> SinkError {
        match err {
            EncodeError::Io(io) => SinkError::Io(io),
            other => SinkError::message(other),
        }
    }
}

impl<W: Write> ToonSink<W> {
    /// A sink writing one TOON document into `out`.
    pub fn new(out: W) -> ToonSink<W> {
        ToonSink {
            writer: Some(Writer::new(out, Options::default())),
            kind: QueryKind::Callers,
            file: None,
            exported_column: false,
            sig_column: false,
            group_exported: false,
            group_sig: false,
            group_extends: false,
            group_may: false,
            rel_column: false,
            rows_left: 0,
            open_levels: Vec::new(),
            sections: 0,
            section_open: false,
            edges_left: 0,
            hops_left: 0,
            edge_table_started: false,
            deps_internal: 0,
            deps_external: 0,
            imports_left: 0,
            lines: String::with_capacity(16),
            sig: String::with_capacity(64),
            budget: Budget::UNBOUNDED,
            id_cells: IdCells::default(),
        }
    }

    /// The same sink with a token budget (and the offset to list from): an answer that
    /// does not fit lists the results that do, with the totals and how to continue.
    pub fn with_budget(mut self, budget: Budget) -> ToonSink<W> {
        self.budget = budget;
        self
    }

    /// Closes the module/package objects, the section and the `targets` object or `paths`
    /// list still open, so that top-level fields can follow.
    fn close_sections(&mut self) -> Result<(), EncodeError> {
        self.close_levels(None)?;
        if self.sections > 0 {
            let paths = self.kind == QueryKind::Path;
            if self.section_open && !paths {
                self.writer()?.end()?;
            }
            self.writer()?.end()?;
        }
        self.sections = 0;
        self.section_open = false;
        Ok(())
    }

    /// The writer of the document; gone once `finish` wrote it out.
    fn writer(&mut self) -> Result<&mut Writer<W>, EncodeError> {
        self.writer.as_mut().ok_or(EncodeError::Misuse(FINISHED))
    }

    fn short<'a>(&self, id: &'a str) -> &'a str {
        short_id(id, self.file.as_deref())
    }

    /// The columns of a table; `group` narrows them to the facts its rows have.
    fn columns(&self, with_kind: bool) -> Columns {
        let mut columns = Columns::default();
        // Seed 002 puts what an interface extends first: `interfaces[n]{extends,…}`.
        if self.group_extends {
            columns.push("extends");
        }
        columns.push("id");
        if with_kind {
            columns.push("kind");
        }
        columns.push("lines");
        match self.kind {
            QueryKind::Callers
            | QueryKind::Callees
            | QueryKind::Impact
            | QueryKind::ChangeImpact => {
                columns.push("depth");
                columns.push("via");
                if self.rel_column {
                    columns.push("rel");
                }
                if self.group_may {
                    columns.push("may");
                }
            }
            QueryKind::Path if self.group_may => columns.push("may"),
            QueryKind::Neighbors => columns.push("distance"),
            QueryKind::Search => columns.push("match"),
            QueryKind::Path | QueryKind::FileSymbols | QueryKind::Export | QueryKind::Deps => {}
        }
        if self.group_exported {
            columns.push("exported");
        }
        if self.group_sig {
            columns.push("sig");
        }
        columns
    }

    fn begin_document(&mut self, header: &Header<'_>) -> Result<(), EncodeError> {
        let kind = header.kind();
        let shape = header.shape;
        let file = self.file.clone();
        let w = self.writer()?;
        let edge_kinds = question_fields(w, header)?;
        let default_kinds = match kind {
            QueryKind::Callers | QueryKind::Callees => EdgeKinds::CALLS,
            QueryKind::Impact | QueryKind::ChangeImpact => EdgeKinds::DEPENDENCIES,
            QueryKind::Path => EdgeKinds::PATH,
            _ => EdgeKinds::ALL,
        };
        if edge_kinds != default_kinds && !edge_kinds.is_empty() {
            w.field("edgeKinds", edge_kinds.to_string().as_str())?;
        }
        if let Some(file) = &file {
            w.field("file", file.as_str())?;
        }
        // The root module `.` is the default — unless packages differ, where the line says
        // that the groups below are packages, not modules.
        if let Some(module) = shape
            .module
            .filter(|m| !m.is_empty() && (*m != "." || shape.package.is_none()))
        {
            w.field("module", module)?;
        }
        if let Some(package) = shape.package.filter(|p| !p.is_empty()) {
            w.field("package", package)?;
        }
        if shape.facets.exported == Some(true) {
            w.field("exported", true)?;
        }
        // One via kind shared by every result: hoisted, unless it is the calls that
        // callers and callees mean anyway.
        let via_kinds = header.walk().map_or(EdgeKinds::NONE, |walk| walk.via_kinds);
        let mut via_kinds = via_kinds.iter();
        if let (Some(only), None) = (via_kinds.next(), via_kinds.next()) {
            let implied =
                only == EdgeKind::Calls && matches!(kind, QueryKind::Callers | QueryKind::Callees);
            if !implied && kind != QueryKind::Neighbors {
                w.field("rel", only.as_str())?;
            }
        }
        if let Question::Traversal(traversal) = &header.question
            && traversal.kind == QueryKind::Callers
        {
            unresolved_fields(w, traversal, shape.sections)?;
        }
        self.change_header(header)?;
        self.listing_header(header)?;
        if kind == QueryKind::Neighbors
            && let Some(center) = &header.root()
        {
            self.center(center)?;
        }
        let w = self.writer()?;
        if shape.nodes == 0 && shape.sections == 0 && kind != QueryKind::Path {
            w.key(if kind == QueryKind::Deps {
                "packages"
            } else {
                "nodes"
            })?;
            w.begin_inline(0)?;
            w.end()?;
        }
        if shape.sections > 0 {
            if kind == QueryKind::Path {
                w.key("paths")?;
                w.begin_list(shape.sections)?;
            } else {
                w.key("targets")?;
                w.begin_object()?;
            }
        }
        Ok(())
    }

    /// The center of neighbors: its ID and the facts it has.
    fn center(&mut self, center: &NodeView<'_>) -> Result<(), EncodeError> {
        lines_cell(center, &mut self.lines);
        signature(center, &mut self.sig);
        let id = short_id(center.id(), self.file.as_deref()).to_owned();
        let (lines, sig) = (
            std::mem::take(&mut self.lines),
            std::mem::take(&mut self.sig),
        );
        let w = self.writer()?;
        w.key("center")?;
        w.begin_object()?;
        w.field("id", id.as_str())?;
        w.field("kind", center.kind().as_str())?;
        if center.start_line() == center.end_line() {
            w.field("lines", center.start_line())?;
        } else {
            w.field("lines", lines.as_str())?;
        }
        if center.exported() {
            w.field("exported", true)?;
        }
        if !sig.is_empty() {
            w.field("sig", sig.as_str())?;
        }
        w.end()?;
        (self.lines, self.sig) = (lines, sig);
        Ok(())
    }

    /// Closes the open module/package objects at `level` and inside it.
    fn close_levels(&mut self, level: Option<GroupLevel>) -> Result<(), EncodeError> {
        let rank = |l: GroupLevel| match l {
            GroupLevel::Section => 0,
            GroupLevel::Module => 1,
            GroupLevel::Package => 2,
            GroupLevel::File | GroupLevel::Kind => 3,
        };
        while let Some(open) = self.open_levels.last().copied() {
            if level.is_some_and(|l| rank(open) < rank(l)) {
                break;
            }
            self.open_levels.pop();
            self.writer()?.end()?;
        }
        Ok(())
    }

    fn open_group(&mut self, group: &Group<'_>) -> Result<(), EncodeError> {
        match group.level {
            GroupLevel::Section => {
                self.close_levels(None)?;
                if self.section_open && self.kind != QueryKind::Path {
                    // The previous target's object.
                    self.writer()?.end()?;
                }
                self.section_open = true;
                if self.kind == QueryKind::Path {
                    self.hops_left = group.edges;
                    let w = self.writer()?;
                    w.begin_object()?;
                    self.path_table(group.nodes, group.facets.may_call)?;
                } else {
                    let name = self.short(group.name).to_owned();
                    let w = self.writer()?;
                    w.key(&name)?;
                    w.begin_object()?;
                    if let Some(change) = group.change {
                        w.field("change", change.as_str())?;
                    }
                    if group.unresolved > 0 {
                        w.field("unresolved", group.unresolved)?;
                    }
                    if group.nodes == 0 {
                        w.key("nodes")?;
                        w.begin_inline(0)?;
                        w.end()?;
                    }
                }
            }
            GroupLevel::Module | GroupLevel::Package => {
                self.close_levels(Some(group.level))?;
                let w = self.writer()?;
                w.key(if group.name.is_empty() {
                    "-"
                } else {
                    group.name
                })?;
                w.begin_object()?;
                self.open_levels.push(group.level);
            }
            GroupLevel::Kind | GroupLevel::File => {
                // A group whose rows are all unexported, or have no signature, drops that
                // column (its absence reads as the default).
                let (exported, sig) = (self.exported_column, self.sig_column);
                self.group_exported = exported && group.facets.exported != Some(false);
                self.group_sig = sig && group.facets.signature;
                self.group_extends = group.facets.extends;
                self.group_may = group.facets.may_call;
                let columns = self.columns(false);
                let key = group.kind.map_or("nodes", plural);
                self.rows_left = group.nodes;
                let w = self.writer()?;
                w.key(key)?;
                w.begin_table(group.nodes, &columns)?;
            }
        }
        Ok(())
    }

    /// A path's node table; `may` adds the column marking nodes reached by a may-call.
    fn path_table(&mut self, nodes: usize, may: bool) -> Result<(), EncodeError> {
        (self.group_exported, self.group_sig) = (self.exported_column, self.sig_column);
        self.group_extends = false;
        self.group_may = may;
        let columns = self.columns(true);
        self.rows_left = nodes;
        let w = self.writer()?;
        w.key("path")?;
        w.begin_table(nodes, &columns)
    }

    fn row(&mut self, node: &NodeView<'_>, info: &NodeInfo<'_>) -> Result<(), EncodeError> {
        // Built only where a cell shows them: one line is a number, and the group may have
        // no signature column.
        if node.start_line() != node.end_line() {
            lines_cell(node, &mut self.lines);
        }
        if self.group_sig {
            signature(node, &mut self.sig);
        }
        let (lines, sig) = (
            std::mem::take(&mut self.lines),
            std::mem::take(&mut self.sig),
        );
        let id = self.short(node.id());
        let via = info.via.map(|v| short_id(v.id, self.file.as_deref()));
        let (kind, rel, exported, sig_column) = (
            self.kind,
            self.rel_column,
            self.group_exported,
            self.group_sig,
        );
        let extends = self.group_extends.then_some(info.extends);
        let may = self.group_may;
        let w = self.writer.as_mut().ok_or(EncodeError::Misuse(FINISHED))?;
        let result = (|| -> Result<(), EncodeError> {
            w.row_begin()?;
            if let Some(extends) = extends {
                w.cell_str(extends)?;
            }
            w.cell_str(id)?;
            if kind == QueryKind::Path {
                w.cell_str(node.kind().as_str())?;
            }
            if node.start_line() == node.end_line() {
                w.cell_u64(u64::from(node.start_line()))?;
            } else {
                w.cell_str(&lines)?;
            }
            match kind {
                QueryKind::Callers
                | QueryKind::Callees
                | QueryKind::Impact
                | QueryKind::ChangeImpact => {
                    w.cell_u64(u64::from(info.depth))?;
                    // A direct result is reached from the root: `null`.
                    w.cell(via.filter(|_| info.depth > 1))?;
                    if rel {
                        w.cell(info.via.map(|v| v.kind.as_str()))?;
                    }
                    if may {
                        w.cell_bool(info.may_call)?;
                    }
                }
                QueryKind::Path if may => w.cell_bool(info.may_call)?,
                QueryKind::Neighbors => w.cell_u64(u64::from(info.depth))?,
                QueryKind::Search => w.cell(info.matched.map(|m| m.as_str()))?,
                QueryKind::Path | QueryKind::FileSymbols | QueryKind::Export | QueryKind::Deps => {}
            }
            if exported {
                w.cell_bool(node.exported())?;
            }
            if sig_column {
                w.cell_str(&sig)?;
            }
            w.row_end()
        })();
        (self.lines, self.sig) = (lines, sig);
        result?;
        self.rows_left = self.rows_left.saturating_sub(1);
        if self.rows_left == 0 {
            let (path_item_done, w) = (
                kind == QueryKind::Path && self.hops_left == 0 && self.sections > 0,
                self.writer()?,
            );
            w.end()?;
            if path_item_done {
                // A path of one node: its list item has no edges to wait for.
                w.end()?;
            }
        }
        Ok(())
    }

    fn edge_row(&mut self, edge: &EdgeInfo<'_>) -> Result<(), EncodeError> {
        let calls = matches!(edge.kind, EdgeKind::Calls | EdgeKind::Includes).then_some(edge.count);
        if self.kind == QueryKind::Path {
            if self.hops_left > 0 && !self.edges_open() {
                let total = self.hops_left;
                self.edges_left = total;
                let w = self.writer()?;
                w.key("edges")?;
                w.begin_table(total, &["type", "calls"])?;
            }
            let w = self.writer()?;
            w.row_begin()?;
            w.cell_str(edge.kind.as_str())?;
            w.cell(calls)?;
            w.row_end()?;
            self.edges_left = self.edges_left.saturating_sub(1);
            self.hops_left = self.hops_left.saturating_sub(1);
            if self.edges_left == 0 {
                let sectioned = self.sections > 0;
                let w = self.writer()?;
                w.end()?;
                if sectioned {
                    // The path's list item.
                    w.end()?;
                }
            }
            return Ok(());
        }
        // CONTAINS edges follow from the IDs (see the module docs).
        if edge.kind == EdgeKind::Contains {
            return Ok(());
        }
        let (source, target) = (self.short(edge.source), self.short(edge.target));
        let w = self.writer.as_mut().ok_or(EncodeError::Misuse(FINISHED))?;
        w.row_begin()?;
        match edge.places {
            Some((from, to)) => {
                w.cell_encoded(self.id_cells.cell(from, source, w))?;
                w.cell_encoded(self.id_cells.cell(to, target, w))?;
            }
            None => {
                w.cell_str(source)?;
                w.cell_str(target)?;
            }
        }
        w.cell_str(edge.kind.as_str())?;
        w.cell(calls)?;
        w.row_end()?;
        self.edges_left = self.edges_left.saturating_sub(1);
        if self.edges_left == 0 {
            self.writer()?.end()?;
        }
        Ok(())
    }

    /// Deps: a row of the `packages` table (the project's packages) or of the `external`
    /// one; each table opens at its first row. A direct dependency's `via` is `null`.
    fn dependency_row(&mut self, d: &Dependency<'_>) -> Result<(), EncodeError> {
        let (internal, external) = (self.deps_internal, self.deps_external);
        let w = self.writer.as_mut().ok_or(EncodeError::Misuse(FINISHED))?;
        if self.rows_left == 0 {
            if d.external {
                w.key("external")?;
                w.begin_table(external, &["name", "depth", "via", "imports"])?;
                self.rows_left = external;
            } else {
                w.key("packages")?;
                w.begin_table(internal, &["name", "module", "depth", "via", "imports"])?;
                self.rows_left = internal;
            }
        }
        w.row_begin()?;
        w.cell_str(d.name)?;
        if !d.external {
            w.cell_str(d.module)?;
        }
        w.cell_u64(u64::from(d.depth))?;
        w.cell((d.depth > 1).then_some(d.via))?;
        w.cell_u64(d.imports as u64)?;
        w.row_end()?;
        self.rows_left = self.rows_left.saturating_sub(1);
        if self.rows_left == 0 {
            w.end()?;
        }
        Ok(())
    }

    /// Deps: a row of the `imports` table; `to` and `line` are `null` for an external
    /// package.
    fn import_row(&mut self, import: &DependencyImport<'_>) -> Result<(), EncodeError> {
        let total = self.imports_left;
        let w = self.writer.as_mut().ok_or(EncodeError::Misuse(FINISHED))?;
        if !self.edge_table_started {
            self.edge_table_started = true;
            w.key("imports")?;
            w.begin_table(total, &["package", "from", "to", "line"])?;
        }
        w.row_begin()?;
        w.cell_str(import.package)?;
        w.cell_str(import.from)?;
        w.cell(import.to)?;
        w.cell(import.line.map(u64::from))?;
        w.row_end()?;
        self.imports_left = self.imports_left.saturating_sub(1);
        if self.imports_left == 0 {
            w.end()?;
        }
        Ok(())
    }

    fn edges_open(&self) -> bool {
        self.edges_left > 0
    }
}

impl<W: Write> ResultSink for ToonSink<W> {
    fn wants_edge_facts(&self) -> bool {
        // Edges are written with their call count alone.
        false
    }

    fn grouping(&self, _kind: QueryKind) -> Grouping {
        Grouping::PackageKind
    }

    // A node row says how it was reached (the via kind), not the via edge's facts.
    fn wants_via_edges(&self) -> bool {
        false
    }

    // A node row names its via node, not the chain from the root.
    fn wants_chains(&self) -> bool {
        false
    }

    fn begin(&mut self, header: &Header<'_>) -> Result<(), SinkError> {
        let shape = header.shape;
        self.id_cells.clear(shape.nodes);
        self.kind = header.kind();
        self.file = match &header.question {
            Question::FileSymbols { file } => Some((*file).to_owned()),
            // Hoisted only when every ID written against it is in it: neighbors' edges also
            // name the center.
            question => shape
                .file
                .filter(|file| match question {
                    Question::Traversal(t) if t.kind == QueryKind::Neighbors => {
                        t.root.file() == *file
                    }
                    _ => true,
                })
                .map(str::to_owned),
        };
        self.exported_column = shape.facets.exported.is_none();
        self.sig_column = shape.facets.signature;
        // The kind of each result's via edge: a column when they differ.
        self.rel_column = self.kind != QueryKind::Neighbors
            && header
                .walk()
                .is_some_and(|walk| walk.via_kinds.iter().count() > 1);
        self.sections = shape.sections;
        (self.deps_internal, self.deps_external, self.imports_left) = match &header.question {
            Question::Deps(d) => (d.internal, d.external, d.imports),
            _ => (0, 0, 0),
        };
        self.section_open = false;
        self.open_levels.clear();
        self.rows_left = 0;
        self.hops_left = 0;
        self.edge_table_started = false;
        // Neighbors and export: one edge table, CONTAINS left out.
        self.edges_left = if self.kind == QueryKind::Path {
            0
        } else {
            shape.edges.total_but(EdgeKind::Contains)
        };
        self.begin_document(header)?;
        if self.kind == QueryKind::Path && shape.sections == 0 && shape.nodes > 0 {
            self.hops_left = shape.edges.total();
            self.path_table(shape.nodes, shape.facets.may_call)?;
        }
        Ok(())
    }

    fn group(&mut self, group: &Group<'_>) -> Result<bool, SinkError> {
        self.open_group(group)?;
        Ok(true)
    }

    fn node(&mut self, node: &NodeView<'_>, info: &NodeInfo<'_>) -> Result<bool, SinkError> {
        self.row(node, info)?;
        Ok(true)
    }

    fn edge(&mut self, edge: &EdgeInfo<'_>) -> Result<bool, SinkError> {
        if self.kind != QueryKind::Path && !self.open_levels.is_empty() {
            self.close_levels(None)?;
        }
        if self.kind != QueryKind::Path
            && edge.kind != EdgeKind::Contains
            && !self.edge_table_started
        {
            self.edge_table_started = true;
            let total = self.edges_left;
            let w = self.writer()?;
            w.key("edges")?;
            w.begin_table(total, &["source", "target", "type", "calls"])?;
        }
        self.edge_row(edge)?;
        Ok(true)
    }

    fn dependency(&mut self, dependency: &Dependency<'_>) -> Result<bool, SinkError> {
        self.dependency_row(dependency)?;
        Ok(true)
    }

    fn dependency_import(&mut self, import: &DependencyImport<'_>) -> Result<bool, SinkError> {
        self.import_row(import)?;
        Ok(true)
    }

    fn unlisted(&mut self, listing: &Listing<'_>) -> Result<bool, SinkError> {
        self.unlisted_rows(listing)?;
        Ok(true)
    }

    fn budget(&self) -> Option<Budget> {
        Some(self.budget)
    }

    fn measure(&self, limit: usize, answer: &mut Answer<'_>) -> Result<Option<usize>, QueryError> {
        budget::measure(limit, ToonSink::new, answer)
    }

    fn finish(&mut self, summary: &Summary) -> Result<(), SinkError> {
        self.close_sections()?;
        let Some(mut w) = self.writer.take() else {
            return Err(EncodeError::Misuse(FINISHED).into());
        };
        let result = (|| -> Result<W, EncodeError> {
            if summary.truncated {
                w.field("truncated", true)?;
                w.field("limit", summary.limit)?;
            }
            if let Some(depth) = summary.deeper() {
                w.field("deeperThan", depth)?;
            }
            if summary.stopped {
                w.field("stopped", true)?;
            }
            w.field("complete", summary.complete())?;
            w.finish()
        })();
        let mut out = result?;
        out.write_all(b"\n")?;
        Ok(out.flush()?)
    }
}
/// The candidate targets of an unresolved call in one cell: their IDs, space-separated,
/// and `+N` for those not named.
fn candidate_cell(site: &tsgraph_query::UnresolvedSite<'_>) -> String {
    let mut cell = site.candidates.join(" ");
    let more = site.candidate_count.saturating_sub(site.candidates.len());
    if more > 0 {
        cell.push_str(&format!(" +{more}"));
    }
    cell
}

/// The columns of one node table, on the stack: a table is opened per group, and a group's
/// rows should not cost an allocation for their header.
#[derive(Default)]
struct Columns {
    names: [&'static str; 10],
    len: usize,
}

impl Columns {
    fn push(&mut self, name: &'static str) {
        // Ten columns at most are ever asked for (extends, id, kind, lines, depth, via, rel,
        // may, exported, sig): a name past them would be a bug, dropped rather than panicked
        // on.
        if let Some(slot) = self.names.get_mut(self.len) {
            *slot = name;
            self.len += 1;
        }
    }
}

impl std::ops::Deref for Columns {
    type Target = [&'static str];
    fn deref(&self) -> &[&'static str] {
        &self.names[..self.len]
    }
}
