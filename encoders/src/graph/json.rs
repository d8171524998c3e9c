//! The JSON encoder: one stable, documented object per result.
//!
//! Schema (every result is one object on one line):
//! - node object: `{"id","kind","file","offset","limit"}` — `offset` is the start line and
//!   `limit` the line count, ready for an agent's Read tool; `"exported": true` when exported.
//! - callers / callees / impact: `{"query","symbol":node,"maxDepth","nodes":[node + "depth"
//!   (+ "via": edge kind, impact only)],"truncated"}`.
//! - path: `{"query":"path","from":node,"to":node,"found","nodes":[node + "step"],
//!   "edges":[{"source","target","kind"}],"truncated"}`.
//! - neighbors: `{"query":"neighbors","center":node,"distance","direction","nodes":[node +
//!   "distance"],"edges":[{"source","target","kind"(+ "count" for calls and includes)}],
//!   "truncated"}`.
//! - every result: `"truncated": true` adds `"limit"`, the node limit that applied.

use std::io::{self, Write};

use tsgraph_query::engine::NodeView;
use tsgraph_query::{EdgeInfo, Header, NodeInfo, QueryKind, ResultSink, Summary};

use super::node_fields::line_count;

/// Writes results as JSON objects.
pub struct JsonSink<W: Write> {
    out: W,
    kind: QueryKind,
    wrote_node: bool,
    wrote_edge: bool,
}

impl<W: Write> JsonSink<W> {
    /// A sink writing into `out`.
    pub fn new(out: W) -> JsonSink<W> {
        JsonSink {
            out,
            kind: QueryKind::Callers,
            wrote_node: false,
            wrote_edge: false,
        }
    }

    /// The writer back.
    pub fn into_inner(self) -> W {
        self.out
    }

    fn string(&mut self, value: &str) -> io::Result<()> {
        serde_json::to_writer(&mut self.out, value).map_err(io::Error::from)
    }

    fn node_object(&mut self, node: &NodeView<'_>) -> io::Result<()> {
        self.out.write_all(b"{\"id\":")?;
        self.string(node.id())?;
        self.out.write_all(b",\"kind\":")?;
        self.string(node.kind().as_str())?;
        self.out.write_all(b",\"file\":")?;
        self.string(node.file())?;
        write!(
            self.out,
            ",\"offset\":{},\"limit\":{}",
            node.start_line(),
            line_count(node)
        )?;
        if node.exported() {
            self.out.write_all(b",\"exported\":true")?;
        }
        Ok(())
    }
}

impl<W: Write> ResultSink for JsonSink<W> {
    fn begin(&mut self, header: &Header<'_>) -> io::Result<()> {
        self.kind = header.kind;
        self.wrote_node = false;
        self.wrote_edge = false;
        write!(self.out, "{{\"query\":\"{}\"", header.kind.as_str())?;
        let root_key: &[u8] = match header.kind {
            QueryKind::Path => b",\"from\":",
            QueryKind::Neighbors => b",\"center\":",
            _ => b",\"symbol\":",
        };
        if let Some(root) = &header.root {
            self.out.write_all(root_key)?;
            self.node_object(root)?;
            self.out.write_all(b"}")?;
        }
        match header.kind {
            QueryKind::Path => {
                if let Some(target) = &header.target {
                    self.out.write_all(b",\"to\":")?;
                    self.node_object(target)?;
                    self.out.write_all(b"}")?;
                }
                write!(self.out, ",\"found\":{}", header.nodes > 0)?;
            }
            QueryKind::Neighbors => {
                write!(
                    self.out,
                    ",\"distance\":{},\"direction\":\"{}\"",
                    header.depth,
                    header.direction.as_str()
                )?;
            }
            QueryKind::Export => {}
            _ => write!(self.out, ",\"maxDepth\":{}", header.depth)?,
        }
        self.out.write_all(b",\"nodes\":[")
    }

    fn node(&mut self, node: &NodeView<'_>, info: &NodeInfo) -> io::Result<()> {
        if self.wrote_node {
            self.out.write_all(b",")?;
        }
        self.wrote_node = true;
        self.node_object(node)?;
        match self.kind {
            QueryKind::Path => write!(self.out, ",\"step\":{}", info.depth)?,
            QueryKind::Neighbors => write!(self.out, ",\"distance\":{}", info.depth)?,
            QueryKind::Export => {}
            _ => write!(self.out, ",\"depth\":{}", info.depth)?,
        }
        if let (QueryKind::Impact, Some(via)) = (self.kind, info.via) {
            write!(self.out, ",\"via\":\"{via}\"")?;
        }
        self.out.write_all(b"}")
    }

    fn edge(&mut self, edge: &EdgeInfo<'_>) -> io::Result<()> {
        self.out.write_all(if self.wrote_edge {
            b","
        } else {
            b"],\"edges\":["
        })?;
        self.wrote_edge = true;
        self.out.write_all(b"{\"source\":")?;
        self.string(edge.source)?;
        self.out.write_all(b",\"target\":")?;
        self.string(edge.target)?;
        write!(self.out, ",\"kind\":\"{}\"", edge.kind)?;
        if edge.count > 0 {
            write!(self.out, ",\"count\":{}", edge.count)?;
        }
        self.out.write_all(b"}")
    }

    fn finish(&mut self, summary: &Summary) -> io::Result<()> {
        let has_edges = matches!(
            self.kind,
            QueryKind::Path | QueryKind::Neighbors | QueryKind::Export
        );
        if self.wrote_edge || !has_edges {
            self.out.write_all(b"]")?;
        } else {
            self.out.write_all(b"],\"edges\":[]")?;
        }
        write!(self.out, ",\"truncated\":{}", summary.truncated)?;
        if summary.truncated {
            write!(self.out, ",\"limit\":{}", summary.limit)?;
        }
        self.out.write_all(b"}")?;
        self.out.write_all(b"\n")?;
        self.out.flush()
    }
}
