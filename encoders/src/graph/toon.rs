//! The TOON encoder of query results: the fewest tokens that still answer the question.
//!
//! What it leaves out, and why:
//! - `name` and `file`: both are in the node ID (`file:Symbol.path`).
//! - a path's edge ends: they follow from the node order, so edges are one inline list of
//!   kinds (`edges[2]: CALLS,REFERENCES`).
//! - defaults: `maxDepth` 5, `distance` 1, `direction` both, `truncated` false.
//! - a package or module shared by every node: one `package:` / `module:` line instead of a
//!   column (a column when they differ).
//!
//! Line ranges are one `lines` cell, `start-end`. Layout, for callers:
//!
//! ```text
//! callers: "src/db/user.ts:saveUser"
//! package: app
//! nodes[2]{id,kind,lines,depth}:
//!   "src/api.ts:handlers.create",Method,4-7,2
//!   "src/services/UserService.ts:UserService.save",Method,12-20,1
//! ```

use std::fmt::Write as _;
use std::io::{self, Write};

use tsgraph_query::engine::NodeView;
use tsgraph_query::{
    Direction, EdgeInfo, Header, NodeInfo, QueryKind, ResultSink, Summary, TraversalOptions,
};

use crate::toon::{EncodeError, Options, Writer};

/// Writes results as TOON.
pub struct ToonSink<W: Write> {
    writer: Option<Writer<W>>,
    kind: QueryKind,
    /// Whether a `package` column is written (packages differ).
    package_column: bool,
    /// Whether a `module` column is written (modules differ).
    module_column: bool,
    /// Node rows still to come; the table is closed after the last.
    nodes_left: usize,
    /// Edges still to come; their list or table opens with the first and closes after the last.
    edges_left: usize,
    edges_open: bool,
    /// The `start-end` cell, reused for every row.
    lines: String,
}

/// Why a sink refuses calls after `finish`: it writes one document.
const FINISHED: &str = "the TOON sink already finished its document";

fn io_error(err: EncodeError) -> io::Error {
    match err {
        EncodeError::Io(io) => io,
        other => io::Error::other(other),
    }
}

impl<W: Write> ToonSink<W> {
    /// A sink writing one TOON document into `out`.
    pub fn new(out: W) -> ToonSink<W> {
        ToonSink {
            writer: Some(Writer::new(out, Options::default())),
            kind: QueryKind::Callers,
            package_column: false,
            module_column: false,
            nodes_left: 0,
            edges_left: 0,
            edges_open: false,
            lines: String::with_capacity(16),
        }
    }

    /// The writer of the document; gone once `finish` wrote it out.
    fn writer(&mut self) -> Result<&mut Writer<W>, EncodeError> {
        self.writer.as_mut().ok_or(EncodeError::Misuse(FINISHED))
    }

    fn columns(&self) -> Vec<&'static str> {
        let mut columns = vec!["id", "kind", "lines"];
        match self.kind {
            QueryKind::Callers | QueryKind::Callees => columns.push("depth"),
            QueryKind::Impact => columns.extend(["depth", "via"]),
            QueryKind::Neighbors => columns.push("distance"),
            QueryKind::Path | QueryKind::Export => {}
        }
        if self.module_column {
            columns.push("module");
        }
        if self.package_column {
            columns.push("package");
        }
        columns
    }

    fn begin_document(&mut self, header: &Header<'_>) -> Result<(), EncodeError> {
        let kind = header.kind;
        let w = self.writer()?;
        if let Some(root) = &header.root {
            w.field(kind.as_str(), root.id())?;
        }
        match kind {
            QueryKind::Path => {
                if let Some(target) = &header.target {
                    w.field("to", target.id())?;
                }
                if header.nodes == 0 {
                    w.field("found", false)?;
                }
            }
            QueryKind::Neighbors => {
                if header.depth != 1 {
                    w.field("distance", header.depth)?;
                }
                if header.direction != Direction::Both {
                    w.field("direction", header.direction.as_str())?;
                }
            }
            QueryKind::Callers | QueryKind::Callees | QueryKind::Impact => {
                if header.depth != TraversalOptions::default().max_depth {
                    w.field("maxDepth", header.depth)?;
                }
            }
            QueryKind::Export => {}
        }
        if let Some(module) = header.module.filter(|m| !m.is_empty() && *m != ".") {
            w.field("module", module)?;
        }
        if let Some(package) = header.package.filter(|p| !p.is_empty()) {
            w.field("package", package)?;
        }
        if kind == QueryKind::Path && header.nodes == 0 {
            return Ok(());
        }
        w.key("nodes")?;
        let columns = self.columns();
        let w = self.writer()?;
        w.begin_table(header.nodes, &columns)?;
        if header.nodes == 0 {
            w.end()?;
        }
        Ok(())
    }
}

impl<W: Write> ResultSink for ToonSink<W> {
    fn begin(&mut self, header: &Header<'_>) -> io::Result<()> {
        self.kind = header.kind;
        self.package_column = header.package.is_none() && header.nodes > 0;
        self.module_column = header.module.is_none() && header.nodes > 0;
        self.edges_open = false;
        self.nodes_left = header.nodes;
        self.edges_left = header.edges;
        self.begin_document(header).map_err(io_error)
    }

    fn node(&mut self, node: &NodeView<'_>, info: &NodeInfo) -> io::Result<()> {
        self.lines.clear();
        // Writing into a String cannot fail.
        let _ = write!(self.lines, "{}-{}", node.start_line(), node.end_line());
        let (kind, module_column, package_column) =
            (self.kind, self.module_column, self.package_column);
        self.nodes_left = self.nodes_left.saturating_sub(1);
        let last = self.nodes_left == 0;
        let lines = std::mem::take(&mut self.lines);
        let result = (|| -> Result<(), EncodeError> {
            let w = self.writer()?;
            w.row_begin()?;
            w.cell_str(node.id())?;
            w.cell_str(node.kind().as_str())?;
            w.cell_str(&lines)?;
            match kind {
                QueryKind::Callers | QueryKind::Callees | QueryKind::Neighbors => {
                    w.cell_u64(u64::from(info.depth))?
                }
                QueryKind::Impact => {
                    w.cell_u64(u64::from(info.depth))?;
                    w.cell(info.via.map(|v| v.as_str()))?;
                }
                QueryKind::Path | QueryKind::Export => {}
            }
            if module_column {
                w.cell_str(node.module())?;
            }
            if package_column {
                w.cell_str(node.package())?;
            }
            w.row_end()?;
            if last {
                w.end()?;
            }
            Ok(())
        })();
        self.lines = lines;
        result.map_err(io_error)
    }

    fn edge(&mut self, edge: &EdgeInfo<'_>) -> io::Result<()> {
        let (kind, first, total) = (self.kind, !self.edges_open, self.edges_left);
        self.edges_open = true;
        self.edges_left = self.edges_left.saturating_sub(1);
        let last = self.edges_left == 0;
        let w = self.writer().map_err(io_error)?;
        let result = (|| -> Result<(), EncodeError> {
            if kind == QueryKind::Path {
                if first {
                    w.key("edges")?;
                    w.begin_inline(total)?;
                }
                w.value(edge.kind.as_str())?;
            } else {
                if first {
                    w.key("edges")?;
                    w.begin_table(total, &["source", "target", "kind"])?;
                }
                w.row_begin()?;
                w.cell_str(edge.source)?;
                w.cell_str(edge.target)?;
                w.cell_str(edge.kind.as_str())?;
                w.row_end()?;
            }
            if last {
                w.end()?;
            }
            Ok(())
        })();
        result.map_err(io_error)
    }

    fn finish(&mut self, summary: &Summary) -> io::Result<()> {
        let Some(mut w) = self.writer.take() else {
            return Err(io_error(EncodeError::Misuse(FINISHED)));
        };
        let result = (|| -> Result<W, EncodeError> {
            if summary.truncated {
                w.field("truncated", true)?;
                w.field("limit", summary.limit)?;
            }
            w.finish()
        })();
        let mut out = result.map_err(io_error)?;
        out.write_all(b"\n")?;
        out.flush()
    }
}
